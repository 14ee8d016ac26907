"""Desktop automation and devices: clicks and keystrokes land in whatever window has focus; a
smart-home bridge switches real lights; pywhatkit drives the user's browser (a video starts
playing) and can shut the machine down (its WhatsApp messages are in `messaging`)."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_PYAUTOGUI = ("click doubleClick tripleClick rightClick middleClick typewrite write press hotkey keyDown keyUp "
              "mouseDown mouseUp dragTo dragRel drag scroll hscroll vscroll")

ROWS: tuple[Row, ...] = (
    *calls(" ".join(f"pyautogui.{n}" for n in _PYAUTOGUI.split()), "{name} (desktop automation)", True, "desktop"),
    *methods("pynput.keyboard.Controller", "press release tap type", "{name} (desktop automation)", True, "desktop"),
    *methods("pynput.mouse.Controller", "click press release scroll", "{name} (desktop automation)", True, "desktop"),
    anys("type_keys click_input set_edit_text", "{name} (desktop automation)", True, "desktop"),  # pywinauto
    *calls("pywhatkit.playonyt pywhatkit.search pywhatkit.open_web pywhatkit.shutdown", "{name} (desktop automation)",
           True, "desktop"),
    *methods("phue.Bridge", "set_light set_group create_group delete_group set_schedule create_schedule "
             "delete_schedule", "{name} (device)", True, "device"),
    # phue's own spellings on a bridge the source does not type (`bridge = ctx.deps`).
    anys("set_light set_group", "{name} (device)", None, "device"),
)
