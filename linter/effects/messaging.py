"""Chat and SMS messages and social posts: Slack, Twilio, Telnyx, Telegram, Discord and its webhooks, WhatsApp
via pywhatkit, X/Twitter via tweepy, Bluesky, Reddit, Mastodon, MQTT; jobs scheduled to run later
(APScheduler)."""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_SLACK_VERBS = ("chat_postMessage chat_postEphemeral chat_update chat_delete chat_scheduleMessage files_upload "
                "files_upload_v2 conversations_create conversations_invite reactions_add")

ROWS: tuple[Row, ...] = (
    *methods("twilio.rest.Client", "create update delete", "{name} (messaging)", True, "message"),
    # Telnyx: the v3 client (`telnyx.Telnyx(api_key=k).messages.send(...)`) and the older resources.
    *methods("telnyx.Telnyx", "send create dial transfer", "{name} (messaging)", True, "message"),
    *methods("telnyx.AsyncTelnyx", "send create dial transfer", "{name} (messaging)", False, "message"),
    *calls("telnyx.Message.create telnyx.Call.create", "{name} (messaging)", True, "message"),
    *methods("slack_sdk.WebClient slack_sdk.web.WebClient slack_sdk.web.client.WebClient slack.WebClient "
             "slack_bolt.App", _SLACK_VERBS, "{name} (messaging)", True, "message"),
    *methods("slack_sdk.web.async_client.AsyncWebClient slack_sdk.web.AsyncWebClient slack_bolt.async_app.AsyncApp",
             _SLACK_VERBS, "{name} (messaging)", False, "message"),
    *methods("slack_sdk.webhook.WebhookClient", "send send_dict", "{name} (messaging)", True, "message"),
    # Slack's own spellings, on a client the source does not type (`ctx.deps.slack_client: Any`):
    # blocking unless awaited.
    anys("chat_postMessage chat_postEphemeral chat_scheduleMessage chat_update chat_delete files_upload_v2",
         "{name} (messaging)", None,
         "message"),
    *methods("telegram.Bot", "send_*", "{name} (messaging)", False, "message"),
    # tweepy: posting, deleting, liking, following, messaging; `get_*` and `search_*` read.
    *methods("tweepy.Client", "create_tweet delete_tweet like unlike retweet unretweet follow_user unfollow_user "
             "create_direct_message bookmark remove_bookmark", "{name} (social post)", True, "message"),
    *methods("tweepy.API", "update_status update_status_with_media destroy_status create_favorite retweet "
             "send_direct_message create_friendship destroy_friendship", "{name} (social post)", True, "message"),
    # facebook-sdk's Graph API: publishing to a page or profile (`put_object(page, "feed", message=...)`),
    # photos, comments, likes, deletions; `get_object` / `get_connections` / `search` read.
    *methods("facebook.GraphAPI", "put_object put_photo put_comment put_like delete_object delete_request",
             "{name} (social post)", True, "message"),
    *methods("discord_webhook.DiscordWebhook", "execute", "{name} (messaging)", True, "message"),
    # discord.py (and py-cord): on the client and on what it hands out (`bot.get_guild(id)`,
    # `bot.get_channel(id)`) or a handler is given: messages sent, edited or deleted, events,
    # channels, roles and threads made, members banned or given roles; `fetch_*` and `get_*` read.
    *methods(" ".join(("discord.Client discord.AutoShardedClient discord.Bot discord.ext.commands.Bot",
                       "discord.ext.commands.AutoShardedBot discord.ext.commands.Context discord.Interaction",
                       "discord.Guild discord.TextChannel discord.Thread discord.Member discord.User",
                       "discord.Message discord.abc.Messageable")),
             "send send_message reply edit delete purge create_* add_roles remove_roles ban unban kick timeout "
             "add_reaction pin unpin publish move_to", "{name} (Discord)", False, "message"),
    # Bluesky (atproto): posts, replies, likes, reposts, follows, deletions; `get_*` reads.
    *methods("atproto.Client", "send_post send_image send_images send_video delete_post like unlike repost "
             "unrepost follow unfollow", "{name} (social post)", True, "message"),
    *methods("atproto.AsyncClient", "send_post send_image send_images send_video delete_post like unlike repost "
             "unrepost follow unfollow", "{name} (social post)", False, "message"),
    # Reddit (praw): submissions, comments, edits, votes, messages, on whatever the client hands out
    # (`reddit.subreddit(s).submit(...)`, `reddit.submission(id).reply(...)`).
    *methods("praw.Reddit", "submit submit_image submit_video submit_gallery submit_poll reply edit delete upvote "
             "downvote crosspost message subscribe unsubscribe", "{name} (social post)", True, "message"),
    # Mastodon.py: statuses posted, boosted, favourited or deleted, media uploaded, accounts followed.
    *methods("mastodon.Mastodon", "status_post toot status_reply status_delete status_reblog status_favourite "
             "media_post account_follow account_unfollow", "{name} (social post)", True, "message"),
    # qiita-v2 (the Qiita API's generated client): articles and comments posted, edited, deleted,
    # stocked or liked, each also as `*_with_http_info`; `get_*` reads.
    *methods("qiita.Qiita", "create_* update_* delete_* put_* stock_* unstock_* add_* remove_*",
             "{name} (article post)", True, "message"),
    # MQTT (paho-mqtt, aiomqtt): a message published to a topic, which devices act on (a light
    # switched, a lock opened); `subscribe` only listens.
    *methods("paho.mqtt.client.Client", "publish", "{name} (MQTT message)", True, "message"),
    *calls("paho.mqtt.publish.single paho.mqtt.publish.multiple", "{name} (MQTT message)", True, "message"),
    *methods("aiomqtt.Client", "publish", "{name} (MQTT message)", False, "message"),
    *calls("pywhatkit.sendwhatmsg pywhatkit.sendwhatmsg_instantly pywhatkit.sendwhatmsg_to_group "
           "pywhatkit.sendwhatmsg_to_group_instantly pywhatkit.sendwhats_image pywhatkit.send_mail",
           "{name} (messaging)", True, "message"),
    # APScheduler: a job added to a scheduler runs later whatever becomes of the tool that added it
    # (a scheduled SMS is sent); a job store that persists (SQLAlchemy, Redis) also writes a row.
    *methods(" ".join(f"apscheduler.schedulers.{m}.{c}" for m, c in (
        ("asyncio", "AsyncIOScheduler"), ("background", "BackgroundScheduler"), ("blocking", "BlockingScheduler"),
        ("gevent", "GeventScheduler"), ("tornado", "TornadoScheduler"), ("twisted", "TwistedScheduler"))),
        "add_job modify_job reschedule_job remove_job remove_all_jobs pause_job resume_job",
        "{name} (scheduled job)", True, "message"),
    *methods("apscheduler.AsyncScheduler", "add_job add_schedule remove_schedule pause_schedule unpause_schedule",
             "{name} (scheduled job)", False, "message"),
    *methods("apscheduler.Scheduler", "add_job add_schedule remove_schedule pause_schedule unpause_schedule",
             "{name} (scheduled job)", True, "message"),
)
