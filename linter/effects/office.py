"""Documents, spreadsheets, images and plots saved to disk (`check="save"`: into a path, not an
in-memory buffer; `check="save_to"`: only when a path is given, else the call returns the text)."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_XLWINGS_BOOKS = "xlwings.Book xlwings.App xlwings.books.open xlwings.books.add xlwings.books.active"

ROWS: tuple[Row, ...] = (
    # Pillow: `Image.open(p).convert("L").save(out)`, `Image.new(...).save(out)`.
    *methods("PIL.Image.open PIL.Image.new PIL.Image.fromarray PIL.Image.frombytes PIL.ImageGrab.grab", "save",
             "{name} (image file)", True, "file", "save"),
    # folium: `folium.Map(location=...).save("route_pics/map.html")` writes the map's HTML page.
    *methods("folium.Map folium.Figure", "save", "{name} (HTML file)", True, "file", "save"),
    # openpyxl, python-docx, python-pptx: `wb.save(path)`.
    *methods("openpyxl.Workbook openpyxl.load_workbook openpyxl.workbook.workbook.Workbook "
             "openpyxl.reader.excel.load_workbook docx.Document pptx.Presentation", "save",
             "{name} (office file)", True, "file", "save"),
    # xlwings drives a running Excel: saving, and closing a workbook it changed, write the file.
    *methods(_XLWINGS_BOOKS, "save", "{name} (office file)", True, "file", "save"),
    # ... and adding or deleting sheets, or clearing cells, changes the workbook the user has open.
    *methods(f"{_XLWINGS_BOOKS} xlwings.Sheet xlwings.Range", "add delete clear clear_contents", "{name} (Excel workbook)",
             True, "file"),
    *calls("matplotlib.pyplot.savefig", "{name} (image file)", True, "file", "save"),
    anys("savefig", "{name} (image file)", True, "file", "save"),
    # pandas: `df.to_csv(path)` writes; `df.to_csv()` returns the text.
    anys("to_csv to_excel to_parquet to_feather to_pickle", "{name} (data file)", True, "file", "save_to"),
)
