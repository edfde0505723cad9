// Turn the React SVG components of @letele/playing-cards into plain .svg files.
// usage: node react_svg.js PACKAGE_DIR OUT_DIR
// The package ships no SVG files, only `React.createElement` calls; a stand-in React that
// prints elements as markup is all it takes to get the original drawings back.
const fs = require("fs");
const path = require("path");

const [pkg, out] = process.argv.slice(2);
let code = fs.readFileSync(path.join(pkg, "dist", "index.esm.js"), "utf8");
code = code.replace(/^import .*$/gm, "");
code = code.replace(/export \{([^}]*)\};/, (m, body) => "return {" + body.replace(/(\w+) as (\w+)/g, "$2: $1") + "};");

// SVG attributes that keep their camelCase spelling; every other camelCase prop becomes kebab-case.
const KEEP = new Set(["viewBox", "preserveAspectRatio", "patternUnits", "patternContentUnits", "patternTransform",
  "gradientUnits", "gradientTransform", "clipPathUnits", "maskUnits", "maskContentUnits", "markerWidth",
  "markerHeight", "refX", "refY", "textLength", "lengthAdjust", "spreadMethod", "stdDeviation", "startOffset",
  "filterUnits", "primitiveUnits", "pathLength", "baseFrequency", "numOctaves"]);
const SPECIAL = { className: "class", xlinkHref: "xlink:href", xmlnsXlink: "xmlns:xlink", xmlSpace: "xml:space" };
const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function attr(k) {
  if (SPECIAL[k]) return SPECIAL[k];
  if (KEEP.has(k)) return k;
  return k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

const React = {
  createElement(tag, props, ...children) {
    if (typeof tag === "function") return tag(Object.assign({}, props, { children }));
    const attrs = Object.entries(props || {})
      .filter(([k, v]) => v !== undefined && v !== null && k !== "children" && !k.startsWith("aria"))
      .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join("");
    const inner = children.flat().filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (typeof c === "object" && "svg" in c ? c.svg : esc(c))).join("");
    return { svg: `<${tag}${attrs}>${inner}</${tag}>` };
  },
};

const mod = new Function("React", "_extends", code)(React, Object.assign);
fs.mkdirSync(out, { recursive: true });
let n = 0;
for (const [name, comp] of Object.entries(mod)) {
  let svg = comp({}).svg;
  if (!svg.includes("xmlns:xlink")) svg = svg.replace("<svg ", '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ');

  fs.writeFileSync(path.join(out, name + ".svg"), svg);
  n++;
}
console.log(`${n} cards written to ${out}`);
