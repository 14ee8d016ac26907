"""Side effects in TypeScript/JavaScript, by the names the JS collector resolves (siblint.js).

Package imports keep the package's name (`import axios from 'axios'` -> `axios`, `import { Pool }
from 'pg'` -> `pg.Pool`, `node:fs` -> `fs`); `fetch` is the global. HTTP methods are read from the
options object (`fetch(url, { method: 'POST' })`, `axios({ method })`): a call without one is a
GET, a method that is not a literal may mutate.
"""

from __future__ import annotations

import re

from .rows import MUTATING_HTTP, Row, anys, calls, methods

_FS_MODULES = ("fs", "fs.promises", "fs/promises", "fs-extra", "graceful-fs")
_FS_WRITES = ("writeFile writeFileSync appendFile appendFileSync rm rmSync rmdir rmdirSync unlink unlinkSync rename "
              "renameSync mkdir mkdirSync copyFile copyFileSync cp cpSync truncate truncateSync createWriteStream "
              "outputFile outputJson writeJson remove move")
_DRIZZLE_DRIVERS = ("node-postgres postgres-js neon-http neon-serverless vercel-postgres xata-http pglite pg-proxy "
                    "aws-data-api/pg mysql2 planetscale-serverless tidb-serverless mysql-proxy singlestore libsql "
                    "better-sqlite3 bun-sqlite bun-sql d1 expo-sqlite op-sqlite durable-sqlite sqlite-proxy gel")
_PROCESSES = "exec execSync execFile execFileSync spawn spawnSync fork"
_CROSS_SPAWN = "cross-spawn cross-spawn.spawn cross-spawn.sync"  # child_process.spawn's drop-in for Windows
_GOOGLE_APIS = "gmail calendar drive sheets docs slides tasks people forms admin youtube"
_GOOGLE_WRITES = ("insert update patch delete send create modify trash untrash move copy import batchUpdate batchModify "
                  "batchDelete append clear quickAdd batchCreate emptyTrash")
# `db.$transaction(async (tx) => ...)` (Prisma), `db.transaction(async (tx) => ...)` (Drizzle, Knex):
# the callback's first parameter is a client of the receiver's kind, bound to the transaction.
TRANSACTION_CALLBACKS = frozenset({"$transaction", "transaction"})
# Calls that take the program and its arguments apart (`execFile('git', ['status'])`); `exec` and
# `execSync` take one command line.
ARGV_CALLS = frozenset({"child_process.execFile", "child_process.execFileSync", "child_process.spawn",
                        "child_process.spawnSync", "execa", "execa.execa", *_CROSS_SPAWN.split()})
# Wrappers whose result takes the wrapped function's arguments: `promisify(execFile)(cmd, args)`
# runs what `execFile(cmd, args)` runs.
SAME_CALL_WRAPPERS = frozenset({"util.promisify"})
# Library types that share one set of methods, named as one constructor: a Google API resource the
# code is handed as a typed parameter (`events: calendar_v3.Resource$Events`) is any API's resource.
TYPE_FAMILIES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^googleapis\.\w+\.Resource\$"), "googleapis.Resource"),
)


_LENS = ("@freelensapp/extensions", "@k8slens/extensions")
_LENS_WRITES = ("create update patch remove removeWithOptions removeSelectedItems delete forceDelete deleteWithFinalizers "
                "evict restart scale")


def _http(lib: str) -> list[Row]:
    """`lib.post(...)` and friends, and `lib(url, { method })` / `lib.request({ method })`."""
    rows = [Row("call", f"{lib}.{m.lower()}", (), "{method} via " + lib, False, "js_http", m, "http")
            for m in sorted(MUTATING_HTTP)]
    rows += [Row("call", f"{lib}.delete", (), "DELETE via " + lib, False, "js_http", "DELETE", "http")]
    return rows + [Row("call", n, (), "{method} via " + lib, False, "js_request", kind="http") for n in (lib, f"{lib}.request")]


ROWS: tuple[Row, ...] = (
    *(Row("call", n, (), "{method} via fetch", False, "js_request", kind="http")
      for n in ("fetch", "globalThis.fetch", "window.fetch", "node-fetch", "undici.fetch", "cross-fetch")),
    *_http("axios"), *_http("got"), *_http("ky"), *_http("superagent"),
    Row("call", "undici.request", (), "{method} via undici", False, "js_request", kind="http"),
    # `const api = axios.create({...}); api.post(...)`
    *(Row("method", "axios.create", (m.lower(),), "{method} via axios", False, "js_http", m, "http") for m in sorted(MUTATING_HTTP)),
    *(Row("method", "axios.create", ("delete",), "DELETE via axios", False, "js_http", "DELETE", "http"),),
    # NestJS's injected axios (`constructor(private http: HttpService)`, `this.http.post(url, body)`).
    *(Row("method", "@nestjs/axios.HttpService", (m.lower(),), "{method} via @nestjs/axios", False, "js_http", m, "http")
      for m in sorted(MUTATING_HTTP)),
    *(r for m in _FS_MODULES for r in calls(" ".join(f"{m}.{v}" for v in _FS_WRITES.split()), "{name} (file write)", False, "file",
                                            "path")),  # not into a scratch folder (`mkdtemp(join(tmpdir(), ...))`)
    *calls(" ".join(f"child_process.{v}" for v in _PROCESSES.split()), "{name} (subprocess)", False, "subprocess",
           "process"),
    *calls("execa execa.execa execa.execaCommand execa.$", "{name} (subprocess)", False, "subprocess", "process"),
    *calls(_CROSS_SPAWN, "{name} (subprocess)", False, "subprocess", "process"),
    # A signal to another process: the server a tool started, or any pid the model names.
    *calls("process.kill", "{name} (a signal to a process)", False, "subprocess", "signal"),
    # ORMs and drivers (a transaction's callback gets a client of the same kind: `TRANSACTION_CALLBACKS`)
    *methods("@prisma/client.PrismaClient", "create createMany update updateMany upsert delete deleteMany "
             "$executeRaw $executeRawUnsafe", "{name} (Prisma write)", False, "orm"),
    # The MongoDB driver's (and Mongoose's) writes on any receiver, as `insert_one` is in Python: the
    # collection comes from a client, a `Collection<T>` field, a repository or a model, and the
    # names are the driver's own.
    anys("insertOne insertMany updateOne updateMany replaceOne deleteOne deleteMany bulkWrite findOneAndUpdate "
         "findOneAndDelete findOneAndReplace findByIdAndUpdate findByIdAndDelete findByIdAndRemove "
         "createCollection dropCollection dropDatabase renameCollection",
         "a MongoDB write", False, "nosql"),
    # A Mongoose model's own `create` (a field typed `Model<T>`, `mongoose.model(...)`), and a document
    # it makes saved (`new Itinerary({...}).save()`); the driver's names are above.
    *methods("mongoose.Model mongoose.model mongoose.default.model", "create save", "{name} (Mongoose write)", False, "nosql"),
    # Cloudflare's Agents SDK: an agent (a Durable Object; `AIChatAgent` derives `Agent`) schedules
    # work that runs later in its own storage (`this.schedule(when, "executeTask", payload)`), queues
    # it, or cancels it; `getSchedules` reads.
    *methods("agents.Agent @cloudflare/ai-chat.AIChatAgent agents/ai-chat-agent.AIChatAgent",
             "schedule scheduleEvery cancelSchedule queue", "{name} (Cloudflare Agent schedule)", False, "cloud"),
    # Google Cloud Scheduler: jobs created, changed, run or deleted.
    *methods("@google-cloud/scheduler.CloudSchedulerClient @google-cloud/scheduler.v1.CloudSchedulerClient",
             "createJob updateJob deleteJob runJob pauseJob resumeJob", "{name} (Cloud Scheduler)", False, "cloud"),
    # Drizzle: `db.insert(users).values({...})` of `db = drizzle(client)`, for each driver's module.
    *methods(" ".join(f"drizzle-orm/{driver}.drizzle" for driver in _DRIZZLE_DRIVERS.split()), "insert update delete",
             "{name} (Drizzle write)", False, "orm"),
    # A write on a table a builder names (`client.from('orders').insert({...})`) on a client siblint
    # cannot trace (a parameter, the run's context): supabase-js's spelling, and a write in any library.
    anys("insert update upsert delete", "{name} (table write)", False, "sql", "from_table"),
    # supabase-js: `supabase.from('orders').update({...}).eq('id', id)`; `select` reads.
    *methods("@supabase/supabase-js.createClient @supabase/ssr.createServerClient @supabase/ssr.createBrowserClient",
             "insert update upsert delete", "{name} (Supabase write)", False, "sql"),
    # Supabase Storage: `supabase.storage.from('documents').upload(path, file)`; `download`,
    # `list` and `createSignedUrl` read.
    *methods("@supabase/supabase-js.createClient @supabase/ssr.createServerClient @supabase/ssr.createBrowserClient",
             "upload uploadToSignedUrl remove move copy createBucket deleteBucket emptyBucket",
             "{name} (Supabase storage)", False, "cloud"),
    # Supabase Auth's admin API: `supabase.auth.admin.createUser({...})`, `inviteUserByEmail(email)`.
    *methods("@supabase/supabase-js.createClient @supabase/ssr.createServerClient @supabase/ssr.createBrowserClient",
             "createUser updateUserById deleteUser inviteUserByEmail", "{name} (Supabase auth)", False, "sql"),
    # node-zendesk: `createClient({...}).tickets.create({ ticket })`, `.tickets.update(id, {...})`; `show`/`list` read.
    *methods("node-zendesk.createClient", "create createMany update updateMany delete deleteMany merge",
             "{name} (Zendesk)", False, "ticket"),
    # Microsoft Graph: `Client.init({ authProvider }).api('/me/events').post(event)`; `get` reads.
    *methods("@microsoft/microsoft-graph-client.Client.init @microsoft/microsoft-graph-client.Client.initWithMiddleware "
             "@microsoft/microsoft-graph-client.Client", "post put patch update delete del", "{name} (Microsoft Graph)",
             False, "http"),
    # Kubernetes: @kubernetes/client-node's typed APIs (`kc.makeApiClient(CoreV1Api).createNamespacedPod(...)`,
    # on any receiver as `create_namespaced_*` in Python) and its generic object API; a Lens or Freelens
    # extension's stores and APIs (`Renderer.K8sApi.apiManager.getStore(api).create(...)`). read*, list*, get read.
    anys("createNamespaced* deleteNamespaced* patchNamespaced* replaceNamespaced* deleteCollectionNamespaced*",
         "{name} (Kubernetes)", False, "cloud"),
    *methods("@kubernetes/client-node.KubernetesObjectApi.makeApiClient", "create patch replace delete",
             "{name} (Kubernetes)", False, "cloud"),
    *methods(" ".join(f"{pkg}.Renderer.K8sApi.apiManager.{getter}" for pkg in _LENS for getter in ("getStore", "getApiByKind",
                                                                                               "getApi")),
             _LENS_WRITES, "{name} (Kubernetes)", False, "cloud"),
    *(Row("family", f"{pkg}.Renderer.K8sApi.", tuple(_LENS_WRITES.split()), "{name} (Kubernetes)", False, kind="cloud")
      for pkg in _LENS),  # its ready-made APIs: `Renderer.K8sApi.podsApi.evict(...)`
    # Replicate: `new Replicate({ auth }).predictions.create({...})` starts a job that runs on detached;
    # `run` waits for the model's answer.
    *methods("replicate replicate.default replicate.Replicate", "create", "{name} (cloud job)", False, "cloud"),
    # Convex: a mutation or action run from a client (`convexClient.mutation(api.jobs.add, {...})`), or
    # from a Convex function (`ctx.runMutation(internal.jobs.add, {...})`); `query` reads.
    *methods("convex/browser.ConvexHttpClient convex/browser.ConvexClient convex/react.ConvexReactClient",
             "mutation action", "{name} (Convex mutation)", False, "nosql"),
    *calls("convex/nextjs.fetchMutation convex/nextjs.fetchAction", "{name} (Convex mutation)", False, "nosql"),
    anys("runMutation runAction", "{name} (Convex mutation)", False, "nosql"),
    # HubSpot: `new Client({ accessToken }).crm.contacts.basicApi.create({...})`; get*, doSearch read.
    *methods("@hubspot/api-client.Client", "create* update* archive* merge* upsert* send* purge gdprDelete",
             "{name} (HubSpot CRM)", False, "ticket"),
    # jsforce (Salesforce): `conn.sobject('Contact').create({...})`, `conn.insert(...)`; `query` reads.
    *methods("jsforce.Connection", "create insert update upsert destroy delete del", "{name} (Salesforce write)", False,
             "ticket"),
    # Appwrite (node-appwrite, appwrite): `new Databases(client).createDocument(db, coll, id, {...})`,
    # `new Storage(client).createFile(...)`; `get*`/`list*` read.
    *methods(" ".join(f"{pkg}.{service}" for pkg in ("node-appwrite", "appwrite")
                      for service in ("Databases", "TablesDB", "Storage", "Users", "Teams", "Messaging", "Functions")),
             "create* update* upsert* delete* increment* decrement*", "{name} (Appwrite write)", False, "nosql"),
    # Firestore: the Admin SDK's (`getFirestore().collection('users').doc(id).set({...})`) and the
    # web SDK's functions (`setDoc(doc(db, 'users', id), {...})`).
    *methods("firebase-admin/firestore.getFirestore firebase-admin.firestore @google-cloud/firestore.Firestore",
             "set update delete add create", "{name} (Firestore write)", False, "nosql"),
    *calls(" ".join(f"firebase/firestore.{v}" for v in ("setDoc", "addDoc", "updateDoc", "deleteDoc")),
           "{name} (Firestore write)", False, "nosql"),
    # PocketBase: `pb.collection('orders').create({...})`; getList, getOne and the auth calls read.
    *methods("pocketbase pocketbase.default pocketbase.PocketBase", "create update delete", "{name} (PocketBase write)",
             False, "sql"),
    # Upstash: a vector index (`index.namespace(n).upsert(...)`) and QStash messages, delivered later.
    *methods("@upstash/vector.Index @upstash/vector/cloudflare.Index @upstash/vector/nodejs.Index",
             "upsert update delete reset deleteNamespace", "{name} (vector store)", False,
             "vector"),
    *methods("@pinecone-database/pinecone.Pinecone", "upsert update deleteOne deleteMany deleteAll createIndex "
             "deleteIndex configureIndex", "{name} (vector store)", False, "vector"),
    *methods("@qdrant/js-client-rest.QdrantClient", "upsert delete createCollection deleteCollection updateCollection "
             "setPayload overwritePayload deletePayload clearPayload", "{name} (vector store)", False, "vector"),
    *methods("@upstash/qstash.Client", "publish publishJSON enqueue enqueueJSON batch batchJSON",
             "{name} (QStash message)", False, "message"),
    # postgres.js and Neon's serverless driver: the tag a connection is (`sql\`INSERT ...\`` of `const
    # sql = postgres(url)`); a SELECT reads.
    *methods("postgres postgres.default @neondatabase/serverless.neon", "__call__", "{name} (SQL)", False, "sql", "sql"),
    *methods("pg.Pool pg.Client postgres mysql2.createPool mysql2.createConnection mysql2/promise.createPool "
             "mysql2/promise.createConnection", "query execute", "{name} (SQL)", False, "sql", "sql"),
    # Cloudflare Agents: an agent's own SQLite, kept by its Durable Object, through the `this.sql`
    # tagged template of a class deriving `Agent` or `AIChatAgent` (synchronous; a SELECT reads).
    *methods("agents.Agent agents/mcp.McpAgent agents/ai-chat-agent.AIChatAgent @cloudflare/ai-chat.AIChatAgent", "sql",
             "{name} (SQL)", True, "sql", "sql"),
    # SQLite in process: node's `DatabaseSync` and better-sqlite3. `exec(sql)` runs SQL; a prepared
    # statement's `run()` executes what `prepare(sql)` holds (`get`/`all` read); synchronous, both.
    *methods("sqlite.DatabaseSync better-sqlite3", "exec", "{name} (SQL)", True, "sql", "sql"),
    *methods("sqlite.DatabaseSync better-sqlite3", "run", "{name} (SQL)", True, "sql", "prepared_sql"),
    # ... and on a database handed in (`ctx.context.db.prepare("INSERT ...").run(...)`, Cloudflare D1's
    # `env.DB.prepare(sql).bind(id).run()`): only SQL that reads as a write.
    anys("run", "{name} (SQL)", None, "sql", "prepared_sql_any"),
    # Puppeteer and Playwright: a click on a live page may submit or delete (as `effects.browser` says
    # of the Python drivers); typing, navigation and reading a page do not.
    *methods("puppeteer.launch puppeteer.default.launch puppeteer.connect puppeteer.Page puppeteer.Browser "
             "puppeteer.ElementHandle playwright.chromium.launch playwright.firefox.launch playwright.webkit.launch "
             "playwright.Page playwright.Locator @playwright/test.Page @playwright/test.Locator",
             "click dblclick tap", "{name} (browser action)", False, "browser"),
    # Script text chosen at run time (the model's) run in the page can do what any click does.
    *methods("puppeteer.launch puppeteer.default.launch puppeteer.connect puppeteer.Page puppeteer.Browser "
             "puppeteer.ElementHandle playwright.chromium.launch playwright.firefox.launch playwright.webkit.launch "
             "playwright.Page playwright.Locator @playwright/test.Page @playwright/test.Locator",
             "evaluate", "{name} of a script chosen at run time (browser action)", False, "browser", "script"),
    # googleapis for Node: `google.gmail({...}).users.messages.send({...})`; `get` and `list` read.
    *methods(" ".join([*(f"googleapis.google.{api}" for api in _GOOGLE_APIS.split()), "googleapis.Resource"]),
             _GOOGLE_WRITES, "{name} (Google API)", False, "google_api"),
    # E2B cloud sandboxes: files written and commands run there outlive the call (the SDK's
    # `Sandbox.create()`, a parameter typed `Sandbox`, the older `@e2b/sdk`'s `process.startAndWait`).
    *methods("@e2b/code-interpreter.Sandbox.create @e2b/code-interpreter.Sandbox.connect e2b.Sandbox.create "
             "e2b.Sandbox.connect e2b.Sandbox @e2b/code-interpreter.Sandbox @e2b/sdk @e2b/sdk.Sandbox "
             "@e2b/sdk.Sandbox.create", "write makeDir remove rename run runCode start startAndWait",
             "{name} (E2B sandbox)", False, "subprocess"),
    # Daytona sandboxes: a command or code run there, and its files and git work, outlive the call
    # (`sandbox.process.executeCommand(cmd)`, `sandbox.fs.uploadFile(...)`).
    *methods("@daytonaio/sdk.Sandbox @daytonaio/sdk.Daytona", "executeCommand executeSessionCommand codeRun uploadFile "
             "uploadFiles createFolder deleteFile moveFiles setFilePermissions replaceInFiles clone commit push pull "
             "createBranch checkoutBranch deleteBranch", "{name} (Daytona sandbox)", False, "subprocess"),
    # payments, mail, messages, tickets, cloud
    *methods("stripe stripe.Stripe", "create update del cancel capture confirm pay refund", "{name} (payments)", False,
             "payment"),
    *methods("nodemailer.createTransport", "sendMail", "{name} (email)", False, "email"),
    *methods("resend.Resend", "send create", "{name} (email)", False, "email"),
    *methods("@sendgrid/mail", "send sendMultiple", "{name} (email)", False, "email"),
    *methods("twilio twilio.Twilio", "create update", "{name} (Twilio)", False, "message"),
    # Slack's Web API client: `chat.*`, `reactions.add`, `conversations.join/leave/invite/...`, pins, files.
    # Verbs a plain value also has (`sections.join("\n")`, a set's `add`) only with their method group.
    *methods("@slack/web-api.WebClient", "postMessage postEphemeral meMessage update delete scheduleMessage uploadV2 "
             "invite kick unarchive setTopic setPurpose " + " ".join(
                 f"{group}.{verb}" for group, verbs in (
                     ("conversations", "join leave archive rename create open close"), ("reactions", "add remove"),
                     ("pins", "add remove"), ("bookmarks", "add remove edit"), ("files", "upload remove"),
                     ("reminders", "add delete complete"), ("usergroups", "create update disable enable"),
                     ("canvases", "create edit delete"), ("stars", "add remove"))
                 for verb in verbs.split()),
             "{name} (Slack)", False, "message"),
    # Notion's JS client (`notion.pages.create`, `notion.blocks.children.append`); `query`/`retrieve`/`list` read.
    *methods("@notionhq/client.Client", "create update append delete", "{name} (Notion)", False, "ticket"),
    # Linear's SDK (`new LinearClient({ apiKey }).createIssue({...})`, `updateIssue`, `createComment`,
    # `createIssueLabel`, `archiveIssue`); `issues`, `issue`, `teams`, `users` read.
    *methods("@linear/sdk.LinearClient", "create* update* delete* archive* unarchive*", "{name} (Linear)", False,
             "ticket"),
    # Okta's management SDK (`client.userApi.createUser`, `deleteUser`, `suspendUser`); `get*`/`list*` read.
    *methods("@okta/okta-sdk-nodejs.Client", "create* update* delete* replace* activate* deactivate* suspend* "
             "unsuspend* unlock* reset* expire* assign* unassign* add* remove* revoke* set* clear* grant*",
             "{name} (Okta)", False, "ticket"),
    # GramJS, the Telegram user-account client (`new TelegramClient(session, id, hash, {})`).
    *methods("telegram.TelegramClient", "sendMessage sendFile editMessage deleteMessages forwardMessages pinMessage",
             "{name} (Telegram)", False, "message"),
    # Telegram bot frameworks: a context's replies (`ctx.replyWithPhoto(url)`) and the Bot API's sends,
    # edits and deletions (`bot.api.sendMessage`, `ctx.telegram.sendMessage`); `replyWithChatAction`
    # only shows "typing".
    *methods("grammy.Context grammy.Bot grammy.Api telegraf.Context telegraf.Telegraf telegraf.Telegram",
             "reply replyWithPhoto replyWithVoice replyWithAudio replyWithDocument replyWithVideo replyWithAnimation "
             "replyWithSticker replyWithMediaGroup replyWithLocation replyWithPoll replyWithInvoice send* edit* delete* "
             "forwardMessage copyMessage pin* unpin* ban* unban*", "{name} (Telegram)", False, "message"),
    # node-telegram-bot-api (`const bot = new TelegramBot(token); bot.sendMessage(chatId, text)`).
    *methods("node-telegram-bot-api node-telegram-bot-api.default",
             "send* edit* delete* forwardMessage forwardMessages copyMessage copyMessages pin* unpin* ban* unban* "
             "restrict* promote* setChat* leaveChat", "{name} (Telegram)", False, "message"),
    # discord.js and its user-account fork: the client's managers and what they fetch
    # (`client.relationships.addFriend(user)`, `channel.send(text)`, `member.ban()`); `fetch*` and
    # `cache.get` read.
    *methods("discord.js.Client discord.js-selfbot-v13.Client",
             "send* reply edit* delete* add* remove* create* kick ban unban bulkDelete pin unpin crosspost "
             "setNickname", "{name} (Discord)", False, "message"),
    # Octokit's REST methods name their verb first (`pulls.createReplyForReviewComment`,
    # `issues.addLabels`, `pulls.requestReviewers`); `get*`, `list*`, `check*` and `compare*` read.
    *methods("@octokit/rest.Octokit octokit.Octokit", "create* update* delete* add* remove* set* merge* replace* dismiss* "
             "submit* lock unlock requestReviewers removeRequestedReviewers transfer cancel* approve* mark* enable* "
             "disable* rerun* rerequest* upload*", "{name} (GitHub)", False, "ticket"),
    # `new Upload({ client, params }).done()` of @aws-sdk/lib-storage: a multipart S3 upload.
    *methods("@aws-sdk/lib-storage.Upload", "done", "{name} (S3 upload)", False, "cloud"),
    *methods("@aws-sdk/client-s3.S3Client @aws-sdk/client-dynamodb.DynamoDBClient @aws-sdk/client-ses.SESClient "
             "@aws-sdk/client-sesv2.SESv2Client @aws-sdk/client-sns.SNSClient @aws-sdk/client-sqs.SQSClient "
             "@aws-sdk/client-lambda.LambdaClient @aws-sdk/lib-dynamodb.DynamoDBDocumentClient", "send",
             "{name} (AWS)", False, "cloud", "aws_command"),
)
