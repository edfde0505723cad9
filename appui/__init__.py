"""Helper modules of the Streamlit app (`app.py`), one job each.

`engine` and `photo` are the adapters to `scoring/` and `vision/`: they turn every failure of the
layers below into a plain message, so the page never shows a traceback.
"""
