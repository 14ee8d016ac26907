"""Email senders: SMTP, and the providers' SDKs."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

ROWS: tuple[Row, ...] = (
    *methods("smtplib.SMTP smtplib.SMTP_SSL smtplib.LMTP", "sendmail send_message", "email via smtplib", True, "email"),
    *calls("aiosmtplib.send", "email via aiosmtplib", False, "email"),
    *methods("aiosmtplib.SMTP", "sendmail send_message", "email via aiosmtplib", False, "email"),
    *methods("sendgrid.SendGridAPIClient sendgrid.sendgrid.SendGridAPIClient", "send post", "email via sendgrid", True,
             "email"),
    *methods("yagmail.SMTP", "send", "email via yagmail", True, "email"),
    Row("family", "resend.Emails.", ("send",), "email via resend", True, kind="email"),
    anys("sendmail", "email via smtplib", None, "email"),
    # postmarker, mailjet and mailgun-style clients: `PostmarkClient(...).emails.send(...)`.
    *methods("postmarker.core.PostmarkClient", "send send_batch", "email via postmark", True, "email"),
    *methods("mailjet_rest.Client", "create", "email via mailjet", True, "email"),
)
