"""Chat and SMS messages: Slack, Twilio, Telegram, Discord webhooks, WhatsApp via pywhatkit."""

from __future__ import annotations

from .rows import Row, calls, methods

_SLACK_VERBS = ("chat_postMessage chat_postEphemeral chat_update chat_delete chat_scheduleMessage files_upload "
                "files_upload_v2 conversations_create conversations_invite reactions_add")

ROWS: tuple[Row, ...] = (
    *methods("twilio.rest.Client", "create update delete", "{name} (messaging)", True, "message"),
    *methods("slack_sdk.WebClient slack_sdk.web.WebClient slack_sdk.web.client.WebClient slack.WebClient "
             "slack_bolt.App", _SLACK_VERBS, "{name} (messaging)", True, "message"),
    *methods("slack_sdk.web.async_client.AsyncWebClient slack_sdk.web.AsyncWebClient slack_bolt.async_app.AsyncApp",
             _SLACK_VERBS, "{name} (messaging)", False, "message"),
    *methods("slack_sdk.webhook.WebhookClient", "send send_dict", "{name} (messaging)", True, "message"),
    *methods("telegram.Bot", "send_*", "{name} (messaging)", False, "message"),
    *methods("discord_webhook.DiscordWebhook", "execute", "{name} (messaging)", True, "message"),
    *calls("pywhatkit.sendwhatmsg pywhatkit.sendwhatmsg_instantly pywhatkit.sendwhatmsg_to_group "
           "pywhatkit.sendwhatmsg_to_group_instantly pywhatkit.sendwhats_image pywhatkit.send_mail",
           "{name} (messaging)", True, "message"),
)
