"""@openai/agents (TypeScript/JavaScript): every spelling of the reference's section 3, across
files, with fixed twins, read-only negatives and name traps.

Runtime truth behind each expectation: /work/shared/reference/openai-agents-js.md section 1
(measured at @openai/agents 0.18.0 and 0.20.0)."""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

from tests.conftest import lint_files

HEAD = "import { Agent, run, Runner, tool } from '@openai/agents';\nimport { z } from 'zod';\n"
CHARGE_BODY = "    await new Promise((r) => setTimeout(r, 300));\n    await fetch('https://pay.example.com/c', { method: 'POST' });\n    return 'ok';\n"


def _codes(tmp_path, files: dict[str, str], target: str = "main.ts", select: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    config = Config(root=str(tmp_path), select=select or ("SIB101", "SIB201", "SIB203", "SIB301"))
    return sorted((d.code, d.loc.line) for d in lint_files(tmp_path, files, target, config))


def _code_set(tmp_path, files, target="main.ts", select=()) -> set[str]:
    return {c for c, _ in _codes(tmp_path, files, target, select)}


# ---- SIB101: execute in every form ------------------------------------------------------------
EXECUTE_FORMS = {
    "async method": "  async execute(input) {\n" + CHARGE_BODY + "  },\n",
    "async arrow": "  execute: async (input) => {\n" + CHARGE_BODY + "  },\n",
    "async function": "  execute: async function (input) {\n" + CHARGE_BODY + "  },\n",
    "reference": "  execute: invoke,\n",
    "shorthand": "  execute,\n",
}


@pytest.mark.parametrize("form", list(EXECUTE_FORMS))
def test_sib101_every_execute_form(form, tmp_path):
    helper = "".join(f"async function {n}(input: unknown) {{\n" + CHARGE_BODY + "}\n" for n in ("invoke", "execute"))
    src = HEAD + helper + "export const charge = tool({\n  name: 'charge',\n  parameters: z.object({}),\n" + \
        EXECUTE_FORMS[form] + "});\n"
    assert "SIB101" in _code_set(tmp_path, {"main.ts": src}), src


SIGNAL_FIXES = {
    "throwIfAborted before the effect": ("details", "    details?.signal?.throwIfAborted();\n", ""),
    "aborted check after the wait": ("details", "    if (details.signal?.aborted) return 'cancelled';\n", ""),
    "signal passed to fetch": ("details", "", ", signal: details?.signal"),
    "destructured signal passed on": ("{ signal }", "", ", signal"),
    "listener": ("details", "", ""),
    "renamed third parameter": ("invokeDetails", "    invokeDetails?.signal?.throwIfAborted();\n", ""),
}


@pytest.mark.parametrize("fix", list(SIGNAL_FIXES))
def test_sib101_fixed_twins(fix, tmp_path):
    param, check, signal = SIGNAL_FIXES[fix]
    listen = "    details.signal?.addEventListener('abort', () => {});\n" if fix == "listener" else ""
    body = ("    await new Promise((r) => setTimeout(r, 300));\n" + listen + check +
            f"    await fetch('https://pay.example.com/c', {{ method: 'POST'{signal} }});\n    return 'ok';\n")
    src = HEAD + f"export const charge = tool({{\n  name: 'charge',\n  parameters: z.object({{}}),\n" \
                 f"  async execute(input, ctx, {param}) {{\n{body}  }},\n}});\n"
    assert "SIB101" not in _code_set(tmp_path, {"main.ts": src}), src


def test_sib101_early_check_does_not_protect(tmp_path):
    body = ("    if (details?.signal?.aborted) return 'cancelled';\n    await new Promise((r) => setTimeout(r, 300));\n"
            "    await fetch('https://pay.example.com/c', { method: 'POST' });\n    return 'ok';\n")
    src = HEAD + "export const charge = tool({\n  name: 'c',\n  parameters: z.object({}),\n" \
                 "  async execute(input, ctx, details) {\n" + body + "  },\n});\n"
    assert _codes(tmp_path, {"main.ts": src}) == [("SIB101", 3)]


SIGNAL_PASSED = {
    # (the tool body, SIB101 expected)
    "to the last await before the effect": (
        "    const page = await fetch('https://x.example.com/p', { signal: details?.signal });\n"
        "    await fetch('https://pay.example.com/c', { method: 'POST', body: await page.text() });\n", False),
    "to a helper doing the effect": ("    await store(input, details?.signal);\n", False),
    "to an early step only": (
        "    const currency = await loadCurrency(details?.signal);\n"
        "    await new Promise((r) => setTimeout(r, 300));\n"
        "    await fetch('https://pay.example.com/c', { method: 'POST', body: currency });\n", True),
    "before a helper that waits before its effect": (
        "    const page = await fetch('https://x.example.com/p', { signal: details?.signal });\n"
        "    await upload(await page.text());\n", True),
}


@pytest.mark.parametrize("case", list(SIGNAL_PASSED))
def test_sib101_signal_passed_on_protects_only_what_follows_it(case, tmp_path):
    """A blind set's canvas agent: the signal goes to the page fetch, not to the storage upload and
    the row insert after it; an abort during the upload leaves the row to land."""
    body, expected = SIGNAL_PASSED[case]
    helpers = ("async function loadCurrency(signal?: AbortSignal) {\n  signal?.throwIfAborted();\n  return 'usd';\n}\n"
               "async function store(input: unknown, signal?: AbortSignal) {\n"
               "  await fetch('https://pay.example.com/c', { method: 'POST', signal });\n}\n"
               "async function upload(text: string) {\n  await fetch('https://blob.example.com/put', { method: 'PUT', body: text });\n"
               "  await fetch('https://db.example.com/rows', { method: 'POST', body: text });\n}\n")
    src = HEAD + helpers + "export const charge = tool({\n  name: 'c',\n  parameters: z.object({}),\n" \
                           "  async execute(input, ctx, details) {\n" + body + "    return 'ok';\n  },\n});\n"
    assert ("SIB101" in _code_set(tmp_path, {"main.ts": src})) is expected, src


EFFECTS = {
    "axios.post": ("import axios from 'axios';\n", "await axios.post('https://x.example.com/orders', {});"),
    "axios config": ("import axios from 'axios';\n", "await axios({ method: 'put', url: 'https://x.example.com' });"),
    "got.post": ("import got from 'got';\n", "await got.post('https://x.example.com');"),
    "fs/promises writeFile": ("import { writeFile } from 'node:fs/promises';\n", "await writeFile('/tmp/out', 'x');"),
    "fs.writeFileSync": ("import fs from 'fs';\n", "fs.writeFileSync('/srv/out', 'x');"),
    "child_process": ("import { execFile } from 'child_process';\n", "execFile('deploy.sh');"),
    # A blind set's Slack assistant: `getLinearClient(token)` returning `new LinearClient({ apiKey })`.
    "Linear issue": ("import { LinearClient } from '@linear/sdk';\n",
                     "await new LinearClient({ apiKey: 'k' }).createIssue({ teamId: 't', title: 'x' });"),
    "prisma": ("import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();\n",
               "await prisma.order.create({ data: {} });"),
    "pg insert": ("import { Pool } from 'pg';\nconst pool = new Pool();\n", "await pool.query('INSERT INTO orders VALUES (1)');"),
    "stripe": ("import Stripe from 'stripe';\nconst stripe = new Stripe('k');\n",
               "await stripe.paymentIntents.create({ amount: 1 });"),
    "nodemailer": ("import nodemailer from 'nodemailer';\nconst mailer = nodemailer.createTransport({});\n",
                   "await mailer.sendMail({ to: 'a@b.c' });"),
    "aws s3 put": ("import { S3Client, PutObjectCommand } from '@aws-sdk/client-s3';\nconst s3 = new S3Client({});\n",
                   "await s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'k' }));"),
    "commonjs require": ("const axios = require('axios');\n", "await axios.delete('https://x.example.com/1');"),
    # H10's shapes: a promisified child_process function, a supabase-js write.
    "promisify(execFile)": ("import { execFile } from 'node:child_process';\nimport { promisify } from 'node:util';\n"
                            "const execFileAsync = promisify(execFile);\n", "await execFileAsync('git', ['add', '.']);"),
    "execFile with run-time args": ("import { execFile } from 'node:child_process';\n", "execFile('git', argv);"),
    # H10's harper: a page the module keeps, known by its annotation, not by the call that made it.
    "puppeteer click on a typed page": ("import type { Page } from 'puppeteer';\nlet page: Page | null = openPage();\n",
                                        "await page!.click('#place-order');"),
    "fetch through an alias": ("const fetchFn: any = (globalThis as any).fetch;\n",
                               "await fetchFn('https://x.example.com/orders', { method: 'POST' });"),
    "googleapis gmail send": ("import { google } from 'googleapis';\n",
                              "await google.gmail({ version: 'v1' }).users.messages.send({ userId: 'me' });"),
    "e2b sandbox write": ("import { Sandbox } from '@e2b/code-interpreter';\n",
                          "const sbx = await Sandbox.connect('id');\n    await sbx.files.write('/app/x.ts', 'x');"),
    "playwright click": ("import { chromium } from 'playwright';\n",
                         "const page = await (await chromium.launch()).newPage();\n    await page.click('#buy');"),
    "supabase update": ("import { createClient } from '@supabase/supabase-js';\nconst db = createClient('u', 'k');\n",
                        "await db.from('orders').update({ status: 'SHIPPED' }).eq('id', 1);"),
    # evalJ7's cred-ai: a file uploaded to Supabase Storage.
    "supabase storage upload": ("import { createClient } from '@supabase/supabase-js';\nconst db = createClient('u', 'k');\n",
                                "await db.storage.from('documents').upload('a/b.pdf', 'x', { upsert: true });"),
    # evalJ3's revelio: clients a dependency-injection lookup hands out by class, Upstash services.
    "prisma from inject(PrismaClient)": ("import { PrismaClient } from '@prisma/client';\nimport { inject } from './di';\n",
                                         "await inject(PrismaClient).reminder.create({ data: {} });"),
    "upstash vector upsert": ("import { Index } from '@upstash/vector/cloudflare';\nconst index = new Index();\n",
                              "await index.namespace('chat').upsert({ id: 1, data: 'x' });"),
    "qstash publishJSON": ("import { Client } from '@upstash/qstash';\nconst q = new Client({ token: 't' });\n",
                           "await q.publishJSON({ url: 'https://x.example.com/notify', body: {} });"),
    "pocketbase create": ("import PocketBase from 'pocketbase';\nconst pb = new PocketBase('http://127.0.0.1:8090');\n",
                          "await pb.collection('chores').create({ title: 'x' });"),
    # evalP3's maige and evalP1's Firestore tools: a GraphQL mutation or a route string on a client
    # of any type, Firestore in both SDKs, the older E2B SDK's sandbox.
    "graphql mutation, any client": ("import { octokit } from './gh';\n",
                                     "await octokit.graphql(`\n  mutation($id: ID!) { addComment(input: {subjectId: $id}) { id } }`, { id: 1 });"),
    "route string POST, any client": ("import { octokit } from './gh';\n",
                                      "await octokit.request(`POST /repos/${'o'}/pulls/1/comments`, { body: 'x' });"),
    "request with a method chosen at run time": ("import { octokit } from './gh';\nconst method = pick();\n",
                                                 "await octokit.request('https://api.github.com/x', { method });"),
    "firestore admin set": ("import { getFirestore } from 'firebase-admin/firestore';\nconst db = getFirestore();\n",
                            "await db.collection('users').doc('1').set({ a: 1 });"),
    "firestore web setDoc": ("import { doc, setDoc } from 'firebase/firestore';\n",
                             "await setDoc(doc(db, 'users', '1'), { a: 1 });"),
    # evalQ3's cal.ai, open-swe and HotDash: a module that is the client, Octokit's verb-first
    # methods, a Daytona sandbox, effects in a function written as an argument.
    "sendgrid module client": ("import mail from '@sendgrid/mail';\n", "await mail.send({ to: 'a@example.com' });"),
    "octokit verb-first method": ("import { Octokit } from '@octokit/rest';\nconst gh = new Octokit();\n",
                                  "await gh.pulls.createReplyForReviewComment({ owner: 'o', repo: 'r', comment_id: 1, body: 'x' });"),
    "daytona sandbox command": ("import type { Sandbox } from '@daytonaio/sdk';\ndeclare const box: Sandbox;\n",
                                "await box.process.executeCommand('npm install');"),
    "spawn in a Promise executor": ("import { spawn } from 'node:child_process';\n",
                                    "await new Promise((resolve) => { spawn('make', ['deploy']).on('close', resolve); });"),
    "fetch in a map callback": ("", "await Promise.all(['a', 'b'].map(async (x) => fetch('https://x.example.com/q', { method: 'POST', body: x })));"),
    # evalS3's ops-pilot: node's built-in SQLite, a statement prepared in a constructor, run later.
    "node:sqlite prepared insert": ("import { DatabaseSync } from 'node:sqlite';\nconst db = new DatabaseSync('x.db');\n"
                                    "const insert = db.prepare('INSERT INTO incidents (title) VALUES (?)');\n",
                                    "insert.run('x');"),
    "better-sqlite3 exec": ("import Database from 'better-sqlite3';\nconst db = new Database('x.db');\n",
                            "db.exec('DELETE FROM incidents');"),
    "e2b sdk typed sandbox": ("import type Sandbox from '@e2b/sdk';\ndeclare const shell: Sandbox;\n",
                              "await shell.filesystem.write('/code/a.ts', 'x');"),
    # evalT3/T4: MongoDB's writes on a typed collection field, node-redis (RedisJSON) and ioredis,
    # Drizzle, and a client's request helper that spreads the options its caller gives.
    "mongodb insertOne on a typed collection": ("import { Collection } from 'mongodb';\nlet reminders: Collection<Doc>;\n",
                                                "await reminders.insertOne({ title: 'x' });"),
    "mongoose findByIdAndUpdate": ("import { Order } from './models';\n",
                                   "await Order.findByIdAndUpdate('1', { status: 'paid' });"),
    "node-redis json.set": ("import { createClient } from 'redis';\nconst client = await createClient().connect();\n",
                            "await client.json.set('cart:1', '$.items', []);"),
    "ioredis hset": ("import Redis from 'ioredis';\nconst redis = new Redis();\n", "await redis.hset('cart:1', 'a', 1);"),
    "drizzle insert": ("import { drizzle } from 'drizzle-orm/postgres-js';\nconst db = drizzle(process.env.DB!);\n",
                       "await db.insert(documents).values({ name: 'x' });"),
    # evalU3: Appwrite's Databases service over a configured client.
    "appwrite createDocument": ("import { Client, Databases } from 'node-appwrite';\n"
                                "const db = new Databases(new Client().setEndpoint('x').setProject('p'));\n",
                                "await db.createDocument('db', 'contests', 'unique()', { title: 'x' });"),
    # evalU4: Microsoft Graph made in the tool; jsforce through a typed field.
    "microsoft graph post": ("import { Client } from '@microsoft/microsoft-graph-client';\n",
                             "await Client.init({ authProvider: (d) => d(null, 't') }).api('/me/sendMail').post({});"),
    "jsforce sobject create": ("import { Connection } from 'jsforce';\nlet conn: Connection;\n",
                               "await conn.sobject('Contact').create({ LastName: 'x' });"),
    # evalU4: a remote MCP server's tool whose name writes, called by name or by a raw `tools/call`.
    "mcp callTool": ("import { Client } from '@modelcontextprotocol/sdk/client/index.js';\nlet mcp: Client;\n",
                     "await mcp.callTool({ name: 'API-patch-block-children', arguments: {} });"),
    "mcp tools/call request": ("import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n"
                               "const mcp = new Client({ name: 'c', version: '1' });\n",
                               "const request = { method: 'tools/call', params: { name: 'create_issue', arguments: {} } };\n"
                               "    await mcp.request(request, Schema);"),
    # evalV3: a client handed in from the run's context (untyped): the table the builder names is written.
    "table write on an untraced client": ("async function createRing(db: any, name: string) {\n"
                                          "  return db.from('wheel_rings').insert({ name }).select().single();\n}\n",
                                          "await createRing(globalThis.db, 'x');"),
    # evalV4 quix: node-zendesk's resources.
    "node-zendesk tickets.update": ("import { createClient } from 'node-zendesk';\n"
                                    "const zd = createClient({ username: 'u', token: 't', subdomain: 's' });\n",
                                    "await zd.tickets.update(1, { ticket: { comment: { body: 'x' } } });"),
    # evalW4 freelens: a Freelens extension's store from the API manager, reached through a helper's
    # returned object and destructured; its ready-made pods API under a local name; a helper that
    # returns one of its ready-made APIs.
    "lens store from a helper's returned object": (
        "import { Renderer } from '@freelensapp/extensions';\n"
        "function target(kind: string) {\n  const api = Renderer.K8sApi.apiManager.getApiByKind(kind, 'v1');\n"
        "  if (!api) return 'no api';\n  return { api, store: Renderer.K8sApi.apiManager.getStore(api) };\n}\n",
        "const { store } = target('Pod') as any;\n    await store.create({ name: 'x' }, {});"),
    "lens pods API under a local name": ("import { Renderer } from '@freelensapp/extensions';\n",
                                         "const pods = Renderer.K8sApi.podsApi;\n    await pods.evict({ name: 'x' });"),
    "lens API a helper returns": (
        "import { Renderer } from '@k8slens/extensions';\n"
        "function workloads(kind: string) {\n  switch (kind) {\n    case 'Deployment':\n"
        "      return Renderer.K8sApi.deploymentApi;\n    default:\n      return undefined;\n  }\n}\n",
        "const api = workloads('Deployment');\n    await api!.restart({ name: 'x' });"),
    "kubernetes client-node typed API": ("import * as k8s from '@kubernetes/client-node';\n"
                                         "const core = new k8s.KubeConfig().makeApiClient(k8s.CoreV1Api);\n",
                                         "await core.deleteNamespacedPod({ name: 'x', namespace: 'default' });"),
    # evalW2: HubSpot's CRM through the client's nested services.
    "hubspot basicApi.create": ("import { Client } from '@hubspot/api-client';\nconst hs = new Client({ accessToken: 't' });\n",
                                "await hs.crm.deals.basicApi.create({ properties: {} });"),
    # evalW3 nucleus: a shell line built with `+=`, the model's pattern in it.
    "grep line built with +=": ("import { execSync } from 'child_process';\n",
                                "let command = 'grep -rn';\n    command += ` \"${process.argv[2]}\" .`;\n"
                                "    execSync(command);"),
    # evalX4 sandbox: a Replicate prediction started.
    "replicate predictions.create": ("import Replicate from 'replicate';\nconst rep = new Replicate({ auth: 't' });\n",
                                     "await rep.predictions.create({ model: 'o/v', input: {} });"),
    # evalX3: a better-sqlite3 database from the run's context; Cloudflare D1's bound statement; Convex.
    "prepared INSERT on the run's context database": ("", "const db = (globalThis as any).ctx.context.db;\n"
                                                          "    db.prepare('INSERT INTO users (name) VALUES (?)').run('x');"),
    "D1 bound statement": ("", "await (globalThis as any).env.DB.prepare('UPDATE jobs SET state = ?').bind('done').run();"),
    "convex mutation": ("import { ConvexHttpClient } from 'convex/browser';\nlet convex: ConvexHttpClient;\n",
                        "await convex.mutation('jobs:add' as any, { title: 'x' });"),
    # evalJ1 harper: the server a tool starts with cross-spawn, and the one it stops by its pid.
    "cross-spawn": ("import spawn from 'cross-spawn';\n", "spawn('harperdb', ['dev', '.']);"),
    "process.kill": ("", "process.kill(4242);"),
    # evalJ5's ai-employee: a Mongoose model's create through a repository's `Model<T>` field, and
    # Google Cloud Scheduler jobs.
    "mongoose Model.create": ("import { Model } from 'mongoose';\nclass Repo<T> {\n  constructor(private model: Model<T>) {}\n"
                              "  async create(data: any) { return this.model.create(data); }\n}\n"
                              "declare const Job: Model<any>;\n",
                              "await new Repo(Job).create({ name: 'x' });"),
    "cloud scheduler createJob": ("import { CloudSchedulerClient } from '@google-cloud/scheduler';\n"
                                  "const scheduler = new CloudSchedulerClient({ projectId: 'p' });\n",
                                  "await scheduler.createJob({ parent: 'p', job: { name: 'j' } });"),
    # evalJ1 harper's browser_evaluate: a script the model wrote, run in the live page.
    "puppeteer evaluate of a script chosen at run time": (
        "import type { Page } from 'puppeteer';\nlet page: Page;\nconst script = process.argv[2];\n",
        "await page.evaluate(script);"),
    "request helper spreading its options": (
        "async function api(path: string, options: RequestInit = {}) {\n"
        "  const controller = new AbortController();\n"
        "  return fetch(`https://graph.example.com${path}`, { ...options, signal: controller.signal });\n}\n",
        "await api('/campaigns', { method: 'POST' });"),
}


@pytest.mark.parametrize("effect", list(EFFECTS))
def test_sib101_js_effects(effect, tmp_path):
    imports, line = EFFECTS[effect]
    src = imports + HEAD + "export const t = tool({\n  name: 't',\n  parameters: z.object({}),\n" \
                           "  execute: async () => {\n    await new Promise((r) => setTimeout(r, 10));\n    " + line + "\n    return 'ok';\n  },\n});\n"
    assert "SIB101" in _code_set(tmp_path, {"main.ts": src}), src


READ_ONLY = {
    "fetch GET": "await fetch('https://x.example.com/items');",
    "axios.get": "await axios.get('https://x.example.com/items');",
    "pg select": "await pool.query('SELECT * FROM orders');",
    "fs read": "await readFile('/tmp/in');",
    "s3 get": "await s3.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));",
    "supabase select": "await db.from('orders').select('id').eq('id', 1);",
    "supabase storage signed url": "await db.storage.from('documents').createSignedUrl('a/b.pdf', 3600);",
    # H10's harper: read-only programs, as the Python side judges them.
    "execFile git status": "const args = ['status'];\n    await execFileAsync('git', args);",
    "execFile grep": "await execFileAsync('grep', ['-Eir', 'x', '.']);",
    "execSync ls": "execSync('ls -la');",
    "puppeteer typing": "await page.type('#q', 'shoes');",
    "puppeteer evaluate of a function or literal text": ("await page.evaluate(() => document.title);\n"
                                                         "    await page.evaluate('document.title');"),
    "googleapis list": "await google.gmail({ version: 'v1' }).users.messages.list({ userId: 'me' });",
    "fetch GET through an alias": "const get = fetch;\n    await get('https://x.example.com/items');",
    "pocketbase getList": "await pb.collection('chores').getList(1, 20);",
    "upstash vector query": "await index.namespace('chat').query({ data: 'x', topK: 3 });",
    "injected client, unknown class": "await inject(Settings).load();",
    "graphql query": "await octokit.graphql(`query { viewer { login } }`);",
    "route string GET": "await octokit.request(`GET /repos/${'o'}`);",
    "request without a method": "await octokit.request('https://api.github.com/x');",
    "firestore get": "await fs.collection('users').doc('1').get();",
    "octokit get": "await gh.pulls.get({ owner: 'o', repo: 'r', pull_number: 1 });",
    "graphql query through a helper": "await gql(`query($q: String!) { orders(query: $q) { id } }`, { query: 'x' });",
    "callback that reads": "await Promise.all(['a'].map(async (x) => fetch('https://x.example.com/items/' + x)));",
    "sqlite prepared select": "sqlite.prepare('SELECT * FROM incidents').all();\n    sqlite.prepare('SELECT 1').run();",
    "mongodb find": "await mongo.db('shop').collection('orders').find({}).toArray();",
    "redis get": "await redis.get('cart:1');\n    await redis.json.get('cart:1', { path: '$' });",
    "drizzle select": "await orm.select().from(documents);",
    "request helper spreading no method": "await api('/campaigns');\n    await api('/campaigns', { headers: {} });",
    "table reads on an untraced client and Array.from": ("await (globalThis as any).db.from('rings').select('*').eq('id', 1);\n"
                                                        "    Array.from([1]).fill(0);"),
    "mcp tools that read": ("await mcpc.callTool({ name: 'API-post-search', arguments: {} });\n"
                            "    await mcpc.callTool({ name: 'get_file_contents', arguments: {} });\n"
                            "    await mcpc.callTool({ name: toolName, arguments: {} });\n"
                            "    await mcpc.request({ method: 'resources/read', params: { uri: 'x' } }, Schema);"),
    "microsoft graph get": "await Client.init({}).api('/me/events').get();",
    "jsforce query": "await conn.query('SELECT Id FROM Contact');",
    "linear issues": "await linear.issues({ filter: {} });\n    await linear.issue('ENG-1');",
    "ls line built with += of literal flags": "let listing = 'ls';\n    if (Date.now()) listing += ' -la';\n    execSync(listing);",
    "prepared SELECT run on an untraced database": ("const db = (globalThis as any).ctx.context.db;\n"
                                                    "    db.prepare('SELECT * FROM users').get();\n"
                                                    "    db.prepare('SELECT 1').run();\n    job.run();"),
    "convex query": "await convexReader.query('jobs:list' as any, {});",
    "replicate run": "await replicateClient.run('o/m', { input: {} });",
    "openai image generation": "await fetch('https://api.openai.com/v1/images/generations', { method: 'POST', body: '{}' });",
    "kubernetes and lens reads": ("await k8sCore.readNamespacedPod({ name: 'x', namespace: 'd' });\n"
                                  "    await LensRenderer.K8sApi.podsApi.getLogs({ name: 'x' });\n"
                                  "    await LensRenderer.K8sApi.apiManager.getStore(LensRenderer.K8sApi.podsApi).loadAll();"),
    "hubspot reads": "await hubspot.crm.contacts.basicApi.getPage(10);\n    await hubspot.crm.deals.searchApi.doSearch({});",
    "cross-spawn of a read-only program, a liveness probe, its own child stopped": (
        "const tail = spawn('tail', ['-f', 'hdb.log']);\n    process.kill(4242, 0);\n    process.kill(tail.pid!);"),
    "appwrite listDocuments": "await aw.listDocuments('db', 'contests');\n    await aw.getDocument('db', 'contests', '1');",
}


@pytest.mark.parametrize("read", list(READ_ONLY))
def test_sib101_read_only_negatives(read, tmp_path):
    imports = ("import axios from 'axios';\nimport { Pool } from 'pg';\nconst pool = new Pool();\n"
               "import { readFile } from 'fs/promises';\n"
               "import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';\nconst s3 = new S3Client({});\n"
               "import { createClient } from '@supabase/supabase-js';\nconst db = createClient('u', 'k');\n"
               "import { execFile, execSync } from 'node:child_process';\nimport { promisify } from 'node:util';\n"
               "import spawn from 'cross-spawn';\n"
               "const execFileAsync = promisify(execFile);\n"
               "import type { Page } from 'puppeteer';\nlet page: Page | null = openPage();\n"
               "import { google } from 'googleapis';\n"
               "import PocketBase from 'pocketbase';\nconst pb = new PocketBase('http://127.0.0.1:8090');\n"
               "import { Index } from '@upstash/vector';\nconst index = new Index();\nimport { inject, Settings } from './di';\n"
               "import { octokit } from './gh';\nimport { getFirestore } from 'firebase-admin/firestore';\nconst fs = getFirestore();\n"
               "import { Octokit } from '@octokit/rest';\nconst gh = new Octokit();\n"
               "import { DatabaseSync } from 'node:sqlite';\nconst sqlite = new DatabaseSync('x.db');\n"
               "import { MongoClient } from 'mongodb';\nconst mongo = new MongoClient('x');\n"
               "import { createClient as redisClient } from 'redis';\nconst redis = redisClient();\n"
               "import { drizzle } from 'drizzle-orm/node-postgres';\nconst orm = drizzle('x');\n"
               "import { LinearClient } from '@linear/sdk';\nconst linear = new LinearClient({ apiKey: 'k' });\n"
               "import { Client as AwClient, Databases } from 'node-appwrite';\nconst aw = new Databases(new AwClient());\n"
               "import { Client } from '@microsoft/microsoft-graph-client';\n"
               "import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';\n"
               "const mcpc = new McpClient({ name: 'c', version: '1' });\nconst toolName = process.env.TOOL;\n"
               "import { Connection } from 'jsforce';\nlet conn: Connection;\n"
               "import * as k8s from '@kubernetes/client-node';\nconst k8sCore = new k8s.KubeConfig().makeApiClient(k8s.CoreV1Api);\n"
               "import { Renderer as LensRenderer } from '@freelensapp/extensions';\n"
               "import { ConvexHttpClient as Convex } from 'convex/browser';\nconst convexReader = new Convex('u');\n"
               "const job = { run: () => 1 };\n"
               "import Replicate from 'replicate';\nconst replicateClient = new Replicate({ auth: 't' });\n"
               "import { Client as HubSpot } from '@hubspot/api-client';\nconst hubspot = new HubSpot({ accessToken: 't' });\n"
               "async function api(path: string, options: RequestInit = {}) {\n"
               "  return fetch(`https://graph.example.com${path}`, { ...options, signal: AbortSignal.timeout(5000) });\n}\n"
               "async function gql(query: string, variables: object) {\n  const res = await fetch('https://shop.example.com/graphql', "
               "{ method: 'POST', body: JSON.stringify({ query, variables }) });\n  return res.json();\n}\n")
    src = imports + HEAD + "export const t = tool({\n  name: 't',\n  parameters: z.object({}),\n" \
                           "  execute: async () => {\n    " + READ_ONLY[read] + "\n    return 'ok';\n  },\n});\n"
    assert _code_set(tmp_path, {"main.ts": src}) == set(), src


def test_sib101_helper_in_another_file_js_extension_is_ts(tmp_path):
    files = {
        "lib/mail.ts": "import nodemailer from 'nodemailer';\nconst t = nodemailer.createTransport({});\n"
                       "export async function sendMail(to: string) {\n  await t.sendMail({ to });\n}\n",
        "main.ts": HEAD + "import { sendMail } from './lib/mail.js';\n"
                   "export const notify = tool({\n  name: 'notify',\n  parameters: z.object({}),\n"
                   "  execute: async (input) => { await sendMail('a@b.c'); return 'sent'; },\n});\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 4)]


@pytest.mark.parametrize("config, found", [
    ('{\n  // Next.js\n  "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./src/*"], }, },\n}\n', True),
    ('{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }', True),  # relative to the config without baseUrl
    ('{ "extends": "./tsconfig.base.json" }', True),  # `paths` from the config it extends
    ('{ "compilerOptions": { "paths": { "@/*": ["./lib/*"] } } }', False),  # maps elsewhere: a package name
    # No config maps any alias (a checkout without its tsconfig): `@/x` is `x` under the nearest
    # folder above the importer holding it (`src/`), as Next.js's default alias names it.
    ("", True),
], ids=["jsonc-baseurl", "no-baseurl", "extends", "elsewhere", "none"])
def test_sib101_helper_imported_through_a_tsconfig_path_alias(config, found, tmp_path):
    """booksite's and GAI_P2's shape: `import { updateOrder } from '@/lib/orders'` (Next.js)."""
    files = {
        "src/lib/orders.ts": "import { createClient } from '@supabase/supabase-js';\n"
                             "export async function updateOrder(id: string) {\n"
                             "  await createClient('u', 'k').from('orders').update({ status: 'x' }).eq('id', id);\n}\n",
        "src/main.ts": HEAD + "import { updateOrder } from '@/lib/orders';\n"
                       "export const update = tool({\n  name: 'update_order',\n  parameters: z.object({}),\n"
                       "  execute: async () => { await updateOrder('1'); return 'ok'; },\n});\n",
        "package.json": "{}",
        "tsconfig.base.json": '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }',
    }
    if config:
        files["tsconfig.json"] = config
    assert _codes(tmp_path, files, "src/main.ts") == ([("SIB101", 4)] if found else [])


@pytest.mark.parametrize("config, spec, found", [
    ('{ "compilerOptions": { "baseUrl": "./" } }', "src/lib/orders", True),  # evalJ26's NestJS server
    ('{ "compilerOptions": { "baseUrl": "./src" } }', "lib/orders", True),
    ('{ "compilerOptions": { "baseUrl": "./" } }', "@/lib/orders", True),  # a conventional alias still
    ('{ "compilerOptions": {} }', "src/lib/orders", False),  # without baseUrl: a package's name
], ids=["root", "src", "alias-beside", "none"])
def test_a_bare_specifier_under_the_configs_base_url(config, spec, found, tmp_path):
    """TypeScript resolves a bare specifier under `baseUrl` (`from 'src/prisma/prisma.service'`)."""
    files = {
        "src/lib/orders.ts": "import { createClient } from '@supabase/supabase-js';\n"
                             "export async function updateOrder(id: string) {\n"
                             "  await createClient('u', 'k').from('orders').update({ status: 'x' }).eq('id', id);\n}\n",
        "src/main.ts": HEAD + f"import {{ updateOrder }} from '{spec}';\n"
                       "export const update = tool({\n  name: 'update_order',\n  parameters: z.object({}),\n"
                       "  execute: async () => { await updateOrder('1'); return 'ok'; },\n});\n",
        "package.json": "{}",
        "tsconfig.json": config,
    }
    assert _codes(tmp_path, files, "src/main.ts") == ([("SIB101", 4)] if found else [])


def test_a_conventional_alias_without_any_config_is_the_file_above_the_importer(tmp_path):
    """evalJ10's booksite exported without its tsconfig.json: `@/lib/db/admin` from
    `src/lib/admin/agents/tooling/orders.ts` is `src/lib/db/admin.ts`; `~/` likewise, and SvelteKit's
    `$lib/db/admin` (evalJ13's edapex). A name no folder above holds stays a package's."""
    helper = ("import { createClient } from '@supabase/supabase-js';\n"
              "export async function updateOrder(id: string) {\n"
              "  await createClient('u', 'k').from('orders').update({ status: 'x' }).eq('id', id);\n}\n")
    for spec, found in (("@/lib/db/admin", True), ("~/lib/db/admin", True), ("@/lib/db/missing", False),
                        ("$lib/db/admin", True)):  # SvelteKit's `$lib` is `src/lib`
        files = {"src/lib/db/admin.ts": helper,
                 "src/lib/admin/agents/tooling/orders.ts": HEAD + f"import {{ updateOrder }} from '{spec}';\n"
                 "export const update = tool({\n  name: 'update_order',\n  parameters: z.object({}),\n"
                 "  execute: async () => { await updateOrder('1'); return 'ok'; },\n});\n"}
        assert _codes(tmp_path / spec.replace("/", "_").replace("$", "S"), files, "src/lib/admin/agents/tooling/orders.ts") == \
            ([("SIB101", 4)] if found else []), spec


def test_sib101_client_another_module_made_at_its_top_level(tmp_path):
    """jump-agent's `pool` from `@/lib/db`: `global.pool || new Pool(...)` there."""
    files = {
        "lib/db.ts": "import { Pool } from 'pg';\nconst g = global as unknown as { pool: Pool };\n"
                     "export const pool = g.pool || new Pool({ connectionString: 'x' });\n",
        "main.ts": HEAD + "import { pool } from './lib/db';\n"
                   "export const save = tool({\n  name: 'save',\n  parameters: z.object({}),\n"
                   "  execute: async () => { await pool.query('INSERT INTO notes VALUES (1)'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 4)]


@pytest.mark.parametrize("client", ["@prisma/client", "../generated/prisma/client"])
@pytest.mark.parametrize("service", [
    "export const taskService = {\n  async create(title: string) {\n    return prisma.task.create({ data: { title } });\n  },\n};\n",
    "async function create(title: string) {\n  return prisma.task.create({ data: { title } });\n}\n"
    "export const taskService = { create };\n",
], ids=["method", "shorthand"])
def test_sib101_service_object_over_another_modules_client(tmp_path, client, service):
    """evalK3's project manager: `taskService.create(...)` of an object literal of methods, over the
    `prisma` another module exports (its `.task` model read through it), made of the client that
    `prisma generate` writes to an `output` folder; a method the object does not hold is no call."""
    files = {
        "db/prisma.ts": f"import {{ PrismaClient }} from '{client}';\nconst prisma = new PrismaClient();\nexport {{ prisma }};\n",
        "services/task.ts": "import { prisma } from '../db/prisma';\n" + service,
        "main.ts": HEAD + "import { taskService } from './services/task';\n"
                   "export const save = tool({\n  name: 'save',\n  parameters: z.object({}),\n"
                   "  async execute() { await taskService.create('x'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 4)]
    files["main.ts"] = files["main.ts"].replace("taskService.create(", "taskService.list(")
    assert _codes(tmp_path, files) == []


WRAPPER = "export const asyncHandler = <A extends unknown[], R>(fn: (...args: A) => R | Promise<R>) =>\n" \
          "  (...args: A): Promise<R> => Promise.resolve(fn(...args));\n"


@pytest.mark.parametrize("held", [
    "export const EXECUTION = {\n  deleteEvent: asyncHandler(async (id: string) => {\n"
    "    await mailer.sendMail({ to: id });\n  }),\n};\n",
    "const deleteEvent = asyncHandler(async (id: string) => {\n  await mailer.sendMail({ to: id });\n});\n"
    "export const EXECUTION = { deleteEvent };\n",
], ids=["member", "shorthand"])
def test_sib101_a_wrapped_function_runs_when_its_wrapper_is_called(tmp_path, held):
    """evalM3's calendar assistant: `EXECUTION_TOOLS.deleteEvent(...)` of an object literal whose
    members are `asyncHandler(async (...) => {...})`, a project wrapper returning a function that
    calls the one it is given."""
    files = {
        "lib/http.ts": WRAPPER,
        "exec.ts": "import nodemailer from 'nodemailer';\nimport { asyncHandler } from './lib/http';\n"
                   "const mailer = nodemailer.createTransport({});\n" + held,
        "main.ts": HEAD + "import { EXECUTION } from './exec';\n"
                   "export const remove = tool({\n  name: 'remove',\n  parameters: z.object({}),\n"
                   "  execute: async () => { await EXECUTION.deleteEvent('x'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 4)]


EVENTS = """import type { calendar_v3 } from 'googleapis';
import { asyncHandler } from './lib/http';
import { ACTION } from './config';

type Params = {
  calendarEvents: calendar_v3.Resource$Events
  id?: string
}

async function deleteEvent({ calendarEvents, id }: Params) {
  return calendarEvents.delete({ calendarId: 'primary', eventId: id ?? '' });
}

async function listEvents(events: calendar_v3.Resource$Events) {
  return events.list({ calendarId: 'primary' });
}

export const eventsHandler = asyncHandler(async (events: calendar_v3.Resource$Events, action?: ACTION) => {
  switch (action) {
    case ACTION.GET:
      return listEvents(events);
    case ACTION.DELETE:
      return deleteEvent({ calendarEvents: events, id: 'x' });
    default:
      throw new Error('unsupported');
  }
});
"""


@pytest.mark.parametrize("action, reported", [("DELETE", True), ("GET", False)])
def test_sib101_a_typed_resource_reached_through_a_dispatch_on_an_enum(tmp_path, action, reported):
    """evalM3's calendar assistant: `eventsHandler(events, ACTION.GET)` of an exported const made by a
    wrapper, whose `switch (action)` runs only the named case; the Google Calendar resource is a
    destructured parameter typed by a type alias (`calendar_v3.Resource$Events`)."""
    files = {
        "lib/http.ts": WRAPPER,
        "config.ts": "export enum ACTION {\n  GET = 'get',\n  DELETE = 'delete',\n}\n",
        "events.ts": EVENTS,
        "main.ts": HEAD + "import { google } from 'googleapis';\nimport { eventsHandler } from './events';\n"
                   "import { ACTION } from './config';\n"
                   "export const act = tool({\n  name: 'act',\n  parameters: z.object({}),\n"
                   f"  execute: async () => eventsHandler(google.calendar({{ version: 'v3' }}).events, ACTION.{action}),\n}});\n",
    }
    assert _codes(tmp_path, files) == ([("SIB101", 6)] if reported else [])


@pytest.mark.parametrize("verb, reported", [("upsert", True), ("query", False)])
def test_sib101_a_vector_store_index_its_client_made(tmp_path, verb, reported):
    """evalO3's worqflow: `pc.index(name).upsert([...])` of `new Pinecone(...)` in a helper module."""
    files = {
        "store.ts": "import { Pinecone } from '@pinecone-database/pinecone';\nexport const pc = new Pinecone({ apiKey: 'k' });\n"
                    f"export async function saveMemory(text: string) {{\n  const index = pc.index('memories');\n"
                    f"  return index.{verb}([{{ id: '1', values: [0.1] }}]);\n}}\n",
        "main.ts": HEAD + "import { saveMemory } from './store';\n"
                   "export const remember = tool({\n  name: 'remember',\n  parameters: z.object({}),\n"
                   "  execute: async () => { await saveMemory('x'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files) == ([("SIB101", 4)] if reported else [])


@pytest.mark.parametrize("param", ["{ prisma }: { prisma: PrismaClient }", "{ prisma }: Deps", "prisma: PrismaClient"])
@pytest.mark.parametrize("verb, reported", [("create", True), ("findFirst", False)])
def test_sib101_a_sub_client_of_a_factorys_typed_parameter(tmp_path, param, verb, reported):
    """evalP3's maige: a tool factory's parameter typed as a client the table knows; the tool uses
    its model delegate (`prisma.instruction.create`), an attribute of the typed name."""
    src = ("import { DynamicStructuredTool } from '@langchain/core/tools';\nimport type { PrismaClient } from '@prisma/client';\n"
           "import { z } from 'zod';\ninterface Deps { prisma: PrismaClient }\n"
           f"export default function makeTool({param}) {{\n  return new DynamicStructuredTool({{\n"
           "    name: 'save', description: 'd', schema: z.object({ c: z.string() }),\n"
           f"    func: async ({{ c }}) => {{ await prisma.instruction.{verb}({{ data: {{ c }} }}); return 'ok'; }},\n  }});\n}}\n")
    assert _codes(tmp_path, {"main.ts": src}) == ([("SIB101", 6)] if reported else [])


def test_sib101_a_method_reached_through_this(tmp_path):
    """evalQ3's open-swe: a tool runs `executor.executeCommand(...)`, which calls `this.executeLocal(...)`
    and reads `this.client`, a client its constructor built."""
    files = {
        "exec.ts": "import { spawn } from 'node:child_process';\nimport nodemailer from 'nodemailer';\n"
                   "export class Executor {\n  private mailer = null as any;\n"
                   "  constructor() { this.mailer = nodemailer.createTransport({}); }\n"
                   "  async executeCommand(cmd: string) { return this.executeLocal(cmd); }\n"
                   "  private async executeLocal(cmd: string) { return spawn('bash', ['-c', cmd]); }\n"
                   "  async notify(to: string) { await this.mailer.sendMail({ to }); }\n}\n",
        "main.ts": HEAD + "import { Executor } from './exec';\n"
                   "export function makeTools() {\n  const shell = tool({\n    name: 'shell',\n    parameters: z.object({}),\n"
                   "    execute: async () => { await new Executor().executeCommand('ls -la /tmp && rm -rf /tmp/x'); return 'ok'; },\n  });\n"
                   "  const notify = tool({\n    name: 'notify',\n    parameters: z.object({}),\n"
                   "    execute: async () => { await new Executor().notify('a@example.com'); return 'ok'; },\n  });\n"
                   "  return [shell, notify];\n}\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 5), ("SIB101", 10)]


WORKSPACE_MAILER = "import nodemailer from 'nodemailer';\nconst t = nodemailer.createTransport({});\n" \
                   "export async function sendMail(to: string) { await t.sendMail({ to }); }\n" \
                   "export async function lookup(to: string) { return to.length; }\n"


@pytest.mark.parametrize("layout", ["npm", "pnpm", "dist-exports"])
def test_sib101_a_helper_in_a_package_of_the_same_monorepo(tmp_path, layout):
    """evalQ3's hyprnote and open-swe: an app imports a package of its own workspace by name
    (`@acme/mailer`); its package.json says which source file that is, or points at build output
    the repository does not hold (`./dist/*.js`, whose source is `./src/*.ts`)."""
    manifest = {"npm": '{"name": "@acme/mailer", "exports": {".": "./src/index.ts"}}',
                "pnpm": '{"name": "@acme/mailer", "main": "src/index.ts"}',
                "dist-exports": '{"name": "@acme/mailer", "exports": {"./*": {"types": "./dist/*.d.ts", "import": "./dist/*.js"}}}'}
    spec = "@acme/mailer/mail" if layout == "dist-exports" else "@acme/mailer"
    files = {
        "package.json": '{"private": true}' if layout == "pnpm" else '{"private": true, "workspaces": ["apps/*", "packages/*"]}',
        "packages/mailer/package.json": manifest[layout],
        "packages/mailer/src/" + ("mail.ts" if layout == "dist-exports" else "index.ts"): WORKSPACE_MAILER,
        "apps/bot/main.ts": HEAD + f"import {{ sendMail, lookup }} from '{spec}';\n"
                            "export const mail = tool({\n  name: 'mail',\n  parameters: z.object({}),\n"
                            "  execute: async () => { await sendMail('a@example.com'); return 'ok'; },\n});\n"
                            "export const look = tool({\n  name: 'look',\n  parameters: z.object({}),\n"
                            "  execute: async () => { await lookup('a'); return 'ok'; },\n});\n",
    }
    if layout == "pnpm":
        files["pnpm-workspace.yaml"] = "packages:\n  - 'apps/*'\n  - \"packages/*\"  # shared code\n"
    assert _codes(tmp_path, files, "apps/bot/main.ts") == [("SIB101", 4)]


def test_a_package_outside_the_workspace_patterns_is_not_resolved(tmp_path):
    files = {
        "package.json": '{"private": true, "workspaces": ["apps/*"]}',
        "vendor/mailer/package.json": '{"name": "@acme/mailer", "main": "index.ts"}',
        "vendor/mailer/index.ts": WORKSPACE_MAILER,
        "apps/bot/main.ts": HEAD + "import { sendMail } from '@acme/mailer';\n"
                            "export const mail = tool({\n  name: 'mail',\n  parameters: z.object({}),\n"
                            "  execute: async () => { await sendMail('a@example.com'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files, "apps/bot/main.ts") == []


def test_sib101_an_async_function_a_sync_one_calls_runs(tmp_path):
    """A JS async function runs when called, from sync code too (`(id) => { return remove(id); }`
    hands back its promise): Python's coroutine made and never awaited is not the analogue."""
    files = {
        "exec.ts": "import nodemailer from 'nodemailer';\nconst mailer = nodemailer.createTransport({});\n"
                   "async function remove(id: string) {\n  await mailer.sendMail({ to: id });\n}\n"
                   "export function removeNow(id: string) {\n  return remove(id);\n}\n",
        "main.ts": HEAD + "import { removeNow } from './exec';\n"
                   "export const drop = tool({\n  name: 'drop',\n  parameters: z.object({}),\n"
                   "  execute: async () => { await removeNow('x'); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files) == [("SIB101", 4)]


def test_sib101_statements_after_a_return_or_throw_do_not_run(tmp_path):
    """A write left below a `return` or `throw` never runs; a function declared below one is
    hoisted, so calling it before still runs its write."""
    files = {"main.ts": HEAD +
             "export const seo = tool({\n  name: 'seo',\n  parameters: z.object({}),\n"
             "  execute: async () => {\n    const meta = await fetch('https://shop.example/c');\n    return meta;\n"
             "    await fetch('https://shop.example/c', { method: 'PUT' });\n  },\n});\n"
             "export const retire = tool({\n  name: 'retire',\n  parameters: z.object({}),\n"
             "  execute: async () => {\n    if (true) {\n      throw new Error('disabled');\n"
             "      await fetch('https://shop.example/c', { method: 'DELETE' });\n    }\n    return 'ok';\n  },\n});\n"
             "export const tag = tool({\n  name: 'tag',\n  parameters: z.object({}),\n"
             "  execute: async () => {\n    await new Promise((r) => setTimeout(r, 300));\n    return post();\n"
             "    async function post() { return fetch('https://shop.example/t', { method: 'POST' }); }\n  },\n});\n"}
    assert _codes(tmp_path, files) == [("SIB101", 23)]  # tag


def test_sib101_signal_passed_to_helper_protects(tmp_path):
    files = {
        "lib/mail.ts": "import nodemailer from 'nodemailer';\nconst t = nodemailer.createTransport({});\n"
                       "export async function sendMail(to: string, opts: { signal?: AbortSignal }) {\n  await t.sendMail({ to });\n}\n",
        "main.ts": HEAD + "import { sendMail } from './lib/mail';\n"
                   "export const notify = tool({\n  name: 'notify',\n  parameters: z.object({}),\n"
                   "  execute: async (input, _ctx, details) => { await sendMail('a@b.c', { signal: details?.signal }); return 'sent'; },\n});\n",
    }
    assert _codes(tmp_path, files) == []


@pytest.mark.parametrize("early_return, found", [(True, []), (False, [("SIB101", 4)])])
def test_sib101_a_helpers_read_through_cache_is_not_the_tools_effect(tmp_path, early_return, found):
    # evalJ3's calendar assistant (`getTimezoneHandler`) and evalJ2's Palmkit (`readWorkspaceFile`):
    # the stored copy first, else read elsewhere, store it, return it.
    cached = "  if (user?.timezone) return { timezone: user.timezone };\n" if early_return else ""
    lib = ("import { createClient } from '@supabase/supabase-js';\nconst db = createClient('u', 'k');\n"
           "export async function userTimezone(email: string) {\n"
           "  const { data: user } = await db.from('users').select('timezone').eq('email', email).single();\n"
           + cached +
           "  const response = await fetch('https://calendar.example.com/settings/timezone');\n"
           "  const timezone = (await response.json()).value || 'UTC';\n"
           "  db.from('users').update({ timezone }).eq('email', email);\n"
           "  return { timezone };\n}\n")
    main = HEAD + "import { userTimezone } from './lib';\n" \
        "export const getTimezone = tool({\n  name: 'get_timezone',\n  parameters: z.object({ email: z.string() }),\n" \
        "  execute: async ({ email }) => userTimezone(email),\n});\n"
    assert _codes(tmp_path, {"main.ts": main, "lib.ts": lib}) == found


@pytest.mark.parametrize("passed, found", [("details?.signal ?? ctx.signal", []), ("details?.signal || undefined", []),
                                           ("ctx.signal", [("SIB101", 3)])])
def test_sib101_signal_passed_with_a_fallback_protects(tmp_path, passed, found):
    # evalJ1's cucumber2: `signal: details?.signal ?? context.signal` hands the tool's signal on
    # whenever the SDK gives one.
    files = {
        "main.ts": HEAD + "export const matte = tool({\n  name: 'matte',\n  parameters: z.object({}),\n"
                   "  execute: async (input, ctx: any, details) => {\n"
                   f"    const r = await fetch('https://img.example.com/in', {{ signal: {passed} }});\n"
                   "    await fetch('https://img.example.com/out', { method: 'POST', body: await r.text() });\n"
                   "    return 'ok';\n  },\n});\n",
    }
    assert _codes(tmp_path, files) == found


# ---- SIB201 / SIB203: fatal switches ---------------------------------------------------------------
def _lookup(options: str) -> str:
    return HEAD + "export const lookup = tool({\n  name: 'lookup',\n  parameters: z.object({}),\n" \
                  "  execute: async () => 'x',\n" + options + "});\n"


FATAL = {
    "errorFunction: null": ("  errorFunction: null,\n", "SIB201"),
    "rethrowing arrow": ("  errorFunction: (_, error) => { throw error; },\n", "SIB201"),
    "rethrowing method": ("  errorFunction(ctx, err) { throw err; },\n", "SIB201"),
    "outputSchema alone": ("  outputSchema: z.object({ a: z.string() }),\n", "SIB201"),
    "raise_exception": ("  timeoutMs: 50,\n  timeoutBehavior: 'raise_exception',\n", "SIB203"),
    "raise_exception as const": ("  timeoutMs: 50,\n  timeoutBehavior: 'raise_exception' as const,\n", "SIB203"),
}


@pytest.mark.parametrize("spelling", list(FATAL))
def test_fatal_spellings(spelling, tmp_path):
    options, code = FATAL[spelling]
    assert code in _code_set(tmp_path, {"main.ts": _lookup(options)})


def test_named_rethrowing_handler(tmp_path):
    src = _lookup("  errorFunction: rethrow,\n").replace("export const lookup", "function rethrow(_c: unknown, e: unknown): string {\n  throw e;\n}\nexport const lookup")
    assert "SIB201" in _code_set(tmp_path, {"main.ts": src})


@pytest.mark.parametrize("options", ["", "  errorFunction: () => 'failed',\n", "  errorFunction: undefined,\n",
                                     "  outputSchema: z.object({}),\n  errorFunction: () => 'no',\n", "  timeoutMs: 50,\n"])
def test_not_fatal(options, tmp_path):
    assert _code_set(tmp_path, {"main.ts": _lookup(options)}) == set()


def test_mcp_server_handler_wins_over_mcp_config_null(tmp_path):
    base = ("import { Agent, MCPServerStdio } from '@openai/agents';\n"
            "const server = new MCPServerStdio({ fullCommand: 'x'{own} });\n"
            "export const agent = new Agent({ name: 'a', mcpServers: [server], mcpConfig: { errorFunction: null } });\n")
    assert "SIB201" in _code_set(tmp_path, {"main.ts": base.replace("{own}", "")})
    server_null = base.replace("{own}", ", errorFunction: null").replace(", mcpConfig: { errorFunction: null }", "")
    assert _codes(tmp_path, {"main.ts": server_null}) == [("SIB201", 2)]


# ---- SIB301: groups in every spelling ----------------------------------------------------------------
CHARGE = ("export const charge = tool({\n  name: 'charge',\n  parameters: z.object({}),\n"
          "  execute: async () => {\n" + CHARGE_BODY + "  },\n});\n")
FATAL_TOOL = ("export const lookup = tool({\n  name: 'lookup',\n  parameters: z.object({}),\n"
              "  execute: async () => { throw new Error('down'); },\n  errorFunction: null,\n});\n")

GROUPS = {
    "new Agent": "const agent = new Agent({ name: 'a', tools: [charge, lookup] });\n",
    "Agent.create": "const agent = Agent.create({ name: 'a', tools: [charge, lookup] });\n",
    "clone with tools": "const base = new Agent({ name: 'b', tools: [lookup] });\nconst agent = base.clone({ tools: [lookup, charge] });\n",
    "clone with spread": "const base = new Agent({ name: 'b', tools: [lookup] });\nconst agent = base.clone({ tools: [...base.tools, charge] });\n",
    "tools.push": "const agent = new Agent({ name: 'a', tools: [lookup] });\nagent.tools.push(charge);\n",
    "reassignment": "const agent = new Agent({ name: 'a', tools: [] });\nagent.tools = [charge, lookup];\n",
    "tools array": "const all = [charge, lookup];\nconst agent = new Agent({ name: 'a', tools: all });\n",
    "parallelToolCalls false": "const agent = new Agent({ name: 'a', tools: [charge, lookup], modelSettings: { parallelToolCalls: false } });\n",
}


@pytest.mark.parametrize("spelling", list(GROUPS))
def test_sib301_group_spellings(spelling, tmp_path):
    src = HEAD + CHARGE + FATAL_TOOL + GROUPS[spelling]
    assert "SIB301" in _code_set(tmp_path, {"main.ts": src}), src


@pytest.mark.parametrize("imports", [
    "import { Agent, tool as defineTool } from '@openai/agents';\nimport { z } from 'zod';\n",
    "import * as agents from '@openai/agents';\nimport { z } from 'zod';\nconst { Agent } = agents;\n",
    "const { Agent, tool: defineTool } = require('@openai/agents');\nconst { z } = require('zod');\n",
    "import { Agent, tool as defineTool } from '@openai/agents-core';\nimport { z } from 'zod';\n",
])
def test_sib301_aliased_namespaced_commonjs(imports, tmp_path):
    maker = "agents.tool" if "* as agents" in imports else "defineTool"
    src = imports + (CHARGE + FATAL_TOOL).replace("tool({", f"{maker}({{") + \
        "const agent = new Agent({ name: 'a', tools: [charge, lookup] });\n"
    assert "SIB301" in _code_set(tmp_path, {"main.ts": src}), src


def test_sib301_one_fatal_side_effecting_tool_is_its_own_sibling(tmp_path):
    src = HEAD + CHARGE.replace("  execute: async", "  errorFunction: null,\n  execute: async") + \
        "const agent = new Agent({ name: 'a', tools: [charge] });\n"
    assert "SIB301" in _code_set(tmp_path, {"main.ts": src})


@pytest.mark.parametrize("behaviour, reported", [("  timeoutBehavior: 'raise_exception',\n", True), ("", False)])
def test_sib301_tools_a_registry_of_definitions_maps_into_tools(tmp_path, behaviour, reported):
    # evalJ2's moni: `definitions.filter(...).map((d) => tool({ name: d.name, timeoutMs, timeoutBehavior:
    # 'raise_exception', execute }))` in another module, given as `tools: createTools(role)`.
    registry = ("import { tool } from '@openai/agents';\nimport { z } from 'zod';\n"
                "const definitions = [{ name: 'record', description: 'Record it.' }];\n"
                "export function createTools(role: string) {\n"
                "  return definitions\n    .filter((d) => role !== 'guest')\n    .map((d) => tool({\n"
                "      name: d.name,\n      description: d.description,\n      parameters: z.object({}),\n"
                "      timeoutMs: 5000,\n" + behaviour +
                "      execute: async () => {\n        await fetch('https://audit.example.com/rows', { method: 'POST' });\n"
                "        return 'ok';\n      },\n    }));\n}\n")
    main = HEAD + "import { createTools } from './registry';\n" \
        "export function supervisor(role: string) {\n  return new Agent({ name: 's', tools: createTools(role) });\n}\n"
    config = Config(root=str(tmp_path), select=("SIB301",))
    found = lint_files(tmp_path, {"main.ts": main, "registry.ts": registry}, "main.ts", config)
    assert [d.loc.line for d in found] == ([5] if reported else [])
    if reported:
        assert found[0].concise.startswith("createTools's tool can outlive its own fatal failure")


@pytest.mark.parametrize("run_call", [
    "run(agent, 'x', { toolExecution: { maxFunctionToolConcurrency: 1 } });\n",
    "const runner = new Runner({ toolExecution: { maxFunctionToolConcurrency: 1 } });\nrunner.run(agent, 'x');\n",
])
def test_sib301_concurrency_cap_serialises(run_call, tmp_path):
    src = HEAD + CHARGE + FATAL_TOOL + "const agent = new Agent({ name: 'a', tools: [charge, lookup] });\n" + run_call
    assert "SIB301" not in _code_set(tmp_path, {"main.ts": src})


def test_sib301_uncapped_run_still_flags(tmp_path):
    src = HEAD + CHARGE + FATAL_TOOL + "const agent = new Agent({ name: 'a', tools: [charge, lookup] });\nrun(agent, 'x');\n"
    assert "SIB301" in _code_set(tmp_path, {"main.ts": src})


def test_handoffs_are_separate_groups(tmp_path):
    src = HEAD + CHARGE + FATAL_TOOL + ("const billing = new Agent({ name: 'billing', tools: [charge] });\n"
                                        "const agent = new Agent({ name: 'a', tools: [lookup], handoffs: [billing] });\n")
    assert "SIB301" not in _code_set(tmp_path, {"main.ts": src})


def test_tools_across_files_index_reexport(tmp_path):
    files = {
        "tools/charge.ts": HEAD + CHARGE,
        "tools/lookup.ts": HEAD + FATAL_TOOL,
        "tools/index.ts": "export { charge } from './charge.js';\nexport * from './lookup';\n",
        "main.ts": "import { Agent } from '@openai/agents';\nimport { charge, lookup } from './tools';\n"
                   "export const agent = new Agent({ name: 'a', tools: [charge, lookup] });\n",
    }
    assert _codes(tmp_path, files, select=("SIB301",)) == [("SIB301", 3)]


# ---- name traps ---------------------------------------------------------------------------------------
TRAPS = {
    "tool from ai": "import { tool } from 'ai';\nimport { Agent } from '@openai/agents';\n",
    "tool from langchain": "import { tool } from '@langchain/core/tools';\nimport { Agent } from '@openai/agents';\n",
}


@pytest.mark.parametrize("trap", list(TRAPS))
def test_name_traps_tool(trap, tmp_path):
    src = TRAPS[trap] + "import { z } from 'zod';\n" + CHARGE + FATAL_TOOL + \
        "const agent = new Agent({ name: 'a', tools: [charge, lookup] });\n"
    assert _code_set(tmp_path, {"main.ts": src}) == set()


def test_name_traps_mcp_server_tool_and_undici_agent(tmp_path):
    src = ("import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { Agent } from 'undici';\n"
           "import { tool } from '@openai/agents';\n"
           "const mcpServer = new McpServer({ name: 'x', version: '1' });\n"
           "mcpServer.tool('charge', {}, async () => { await fetch('https://p.example.com', { method: 'POST' }); return {}; });\n"
           "const pool = new Agent({ connections: 1, tools: [] });\n")
    assert _code_set(tmp_path, {"main.ts": src}) == set()


# ---- suppression comments --------------------------------------------------------------------------------
def test_js_noqa_and_disable_next_line(tmp_path):
    flagged = HEAD + CHARGE
    line = flagged.splitlines().index("export const charge = tool({") + 1
    lines = flagged.splitlines()
    inline = lines.copy()
    inline[line - 1] += "  // noqa: SIB101"
    assert _code_set(tmp_path, {"main.ts": "\n".join(inline) + "\n"}) == set()
    above = lines[: line - 1] + ["// siblint-disable-next-line SIB101"] + lines[line - 1:]
    assert _code_set(tmp_path, {"main.ts": "\n".join(above) + "\n"}) == set()
    other = lines[: line - 1] + ["// siblint-disable-next-line SIB201"] + lines[line - 1:]
    assert _code_set(tmp_path, {"main.ts": "\n".join(other) + "\n"}) == {"SIB101"}


@pytest.mark.parametrize("ext", [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"])
def test_every_extension_is_linted(ext, tmp_path):
    src = (HEAD + CHARGE).replace("parameters: z.object({}),\n", "")
    if ext in (".js", ".jsx", ".mjs", ".cjs"):
        src = src.replace("(r) =>", "r =>")
    assert "SIB101" in _code_set(tmp_path, {"main" + ext: src}, target="main" + ext)


def test_a_monorepo_package_without_its_manifests_and_a_committed_prisma_output(tmp_path):
    """evalJ17's Quinn, as a checkout holding only sources: `@quinn/database` is
    `packages/database/src/index.ts`, whose `prisma` is a `PrismaClient` of the generator's committed
    output (`../generated/client/index.js`, beside `schema.prisma`). A framework's scope stays the
    framework's, whatever folder the project has."""
    files = {
        "packages/database/src/index.ts": "export { prisma } from './client.js';\n",
        "packages/database/src/client.ts": "import { PrismaClient } from '../generated/client/index.js';\n"
                                           "export const prisma = new PrismaClient();\n",
        "packages/database/generated/client/index.js": "exports.PrismaClient = class {};\n",
        "packages/database/generated/client/schema.prisma": "datasource db { provider = \"postgresql\" }\n",
        "packages/agents/src/tools.ts": HEAD + "import { prisma } from '@quinn/database';\n"
                                        "export const approve = tool({\n  name: 'approve',\n  parameters: z.object({}),\n"
                                        "  execute: async () => { await prisma.approval.create({ data: {} }); return 'ok'; },\n});\n",
    }
    assert _codes(tmp_path, files, "packages/agents/src/tools.ts") == [("SIB101", 4)]
    files["packages/agents/src/tools.ts"] = files["packages/agents/src/tools.ts"].replace("@quinn/database", "@langchain/database")
    assert _codes(tmp_path / "other", files, "packages/agents/src/tools.ts") == []


def test_conventional_lookups_stay_inside_the_repository(tmp_path):
    """The folders above the importer are searched up to the repository's root (`.git`), not above:
    a `packages/database` or `lib/db.ts` beside the checkout is not the project's."""
    from siblint.js import modules

    (tmp_path / "packages" / "database" / "src").mkdir(parents=True)
    (tmp_path / "packages" / "database" / "src" / "index.ts").write_text("export const prisma = 1;\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "db.ts").write_text("export const db = 1;\n")
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    importer = str(repo / "src" / "main.ts")
    assert modules.resolve_specifier("@quinn/database", importer) == "@quinn/database"
    assert modules.resolve_specifier("@/lib/db", importer) == "@/lib/db"


def test_a_project_tool_class_whose_method_makes_the_tool_of_this_execute(tmp_path):
    """evalJ19's Discord self-bot: `Tool.toOpenAITool()` returns `tool({ execute: this.execute.bind(this) })`,
    and each subclass overrides `execute`; the client arrives as `context.context.client` of
    `RunContext<AgentContext>`, whose `client: BotClient` derives discord.js's `Client`. A subclass
    that only reads, and the base's own stub, are no tools that act."""
    files = {
        "src/core/Tool.ts": HEAD + "export default class Tool {\n"
                            "  constructor(public name: string) {}\n"
                            "  toOpenAITool() {\n"
                            "    return tool({ name: this.name, description: '', parameters: z.object({}),\n"
                            "                  execute: this.execute.bind(this) });\n"
                            "  }\n"
                            "  execute(input: unknown, context?: unknown): any { throw new Error('not implemented'); }\n"
                            "}\n",
        "src/core/BotClient.ts": "import { Client } from 'discord.js-selfbot-v13';\n"
                                 "export default class BotClient extends Client {}\n",
        "src/core/AgentContext.ts": "import BotClient from './BotClient';\n"
                                    "export default class AgentContext {\n  client: BotClient;\n"
                                    "  constructor(client: BotClient) { this.client = client; }\n}\n",
        "src/tools/AddFriend.ts": "import { RunContext } from '@openai/agents';\n"
                                  "import AgentContext from '../core/AgentContext';\n"
                                  "import Tool from '../core/Tool';\n"
                                  "export default class AddFriend extends Tool {\n"
                                  "  constructor() { super('add_friend'); }\n"
                                  "  override async execute(input: { id: string }, context?: RunContext<AgentContext>) {\n"
                                  "    const client = context?.context.client;\n"
                                  "    const user = await client.users.fetch(input.id);\n"
                                  "    await client.relationships.addFriend(user);\n"
                                  "    return 'sent';\n  }\n}\n",
        "src/tools/Whois.ts": "import { RunContext } from '@openai/agents';\n"
                              "import AgentContext from '../core/AgentContext';\n"
                              "import Tool from '../core/Tool';\n"
                              "export default class Whois extends Tool {\n"
                              "  constructor() { super('whois'); }\n"
                              "  override async execute(input: { id: string }, context?: RunContext<AgentContext>) {\n"
                              "    const user = await context?.context.client.users.fetch(input.id);\n"
                              "    return user.tag;\n  }\n}\n",
    }
    assert _codes(tmp_path, files, "src/tools/AddFriend.ts") == [("SIB101", 4)]
    assert _codes(tmp_path, files, "src/tools/Whois.ts") == []
    assert _codes(tmp_path, files, "src/core/Tool.ts") == []


def test_an_rpc_helper_posting_the_operation_its_caller_names(tmp_path):
    """evalJ18's gym tracker: every tool POSTs `{ action, payload }` to one endpoint through a helper;
    `get_routines` reads, `delete_routine` writes."""
    helper = ("async function callApi(action: string, payload: unknown) {\n"
              "  const res = await fetch(`${BASE}/api/routines`, { method: 'POST', body: JSON.stringify({ action, payload }) });\n"
              "  return res.json();\n}\n")
    src = HEAD + "const BASE = process.env.APP_URL;\n" + helper + "".join(
        f"export const {name} = tool({{\n  name: '{name}',\n  parameters: z.object({{}}),\n"
        f"  execute: async (args) => JSON.stringify(await callApi('{name}', args)),\n}});\n"
        for name in ("get_routines", "delete_routine"))
    found = _codes(tmp_path, {"main.ts": src})
    assert [line for _, line in found] == [src.splitlines().index("export const delete_routine = tool({") + 1]


def test_a_database_client_handed_down_two_factories_from_another_module(tmp_path):
    """evalJ27's ai-db-connector: `createPostgresTools(pgClient)` in `tools/`, called by
    `createSupabaseAgent(pgClient)` in `agents/`, called by a route with `new Client(...)` of `pg`:
    the tools' SQL writes are the client's (their SQL read, SELECT a read); a MongoDB database's
    `createCollection` writes."""
    from tests.conftest import lint_files

    files = {
        "tools/pg.js": "import { z } from 'zod';\nimport { tool } from '@openai/agents';\n\n"
                       "export function createPostgresTools(pgClient) {\n"
                       "  const insertRow = tool({ name: 'insert_row', description: 'd', parameters: z.object({ t: z.string() }),\n"
                       "    async execute({ t }) {\n      const sql = `INSERT INTO ${t} (a) VALUES ($1)`;\n"
                       "      return (await pgClient.query(sql, [1])).rows;\n    } });\n"
                       "  const listRows = tool({ name: 'list_rows', description: 'd', parameters: z.object({ t: z.string() }),\n"
                       "    async execute({ t }) {\n      return (await pgClient.query(`SELECT * FROM ${t}`)).rows;\n    } });\n"
                       "  return [insertRow, listRows];\n}\n\n"
                       "export function createMongoTools(database) {\n"
                       "  return [tool({ name: 'create_collection', description: 'd', parameters: z.object({ n: z.string() }),\n"
                       "    async execute({ n }) {\n      await database.createCollection(n);\n      return 'ok';\n    } })];\n}\n",
        "agents/db_agent.js": "import { Agent } from '@openai/agents';\nimport { createPostgresTools, createMongoTools } from '../tools/pg.js';\n\n"
                              "export const createDbAgent = (pgClient, database) => {\n"
                              "  return new Agent({ name: 'db', tools: [...createPostgresTools(pgClient), ...createMongoTools(database)] });\n};\n",
        "routes/agent.js": "import { Client } from 'pg';\nimport { MongoClient } from 'mongodb';\nimport { run } from '@openai/agents';\n"
                           "import { createDbAgent } from '../agents/db_agent.js';\n\n"
                           "export async function handle(prompt) {\n  const pgClient = new Client({ connectionString: process.env.DB });\n"
                           "  await pgClient.connect();\n  const database = new MongoClient(process.env.MONGO).db('app');\n"
                           "  return run(createDbAgent(pgClient, database), prompt);\n}\n",
    }
    config = Config(root=str(tmp_path), select=("SIB101",))
    found = sorted(d.loc.line for d in lint_files(tmp_path, files, "tools/pg.js", config))
    lines = files["tools/pg.js"].splitlines()
    assert found == [i for i, ln in enumerate(lines, 1) if "name: 'insert_row'" in ln or "name: 'create_collection'" in ln]


def test_sib101_a_node_telegram_bot_api_send_in_a_helper_module(tmp_path):
    """evalJ28's placement-mail-bot: `new TelegramBot(token)` of node-telegram-bot-api (its default
    export) sends from a helper module the tool awaits; `getMe` only reads."""
    telegram = ("import TelegramBot from 'node-telegram-bot-api';\n\n"
                "const bot = new TelegramBot(process.env.TOKEN!, { polling: false });\n\n"
                "export async function createMessage(details: string) {\n"
                "  await bot.sendMessage(process.env.CHATID!, details);\n}\n\n"
                "export async function whoAmI() {\n  return bot.getMe();\n}\n")
    main = (HEAD + "import { createMessage, whoAmI } from './telegram';\n\n"
            "export const mailTool = tool({ name: 'mail', description: 'd', parameters: z.object({ d: z.string() }),\n"
            "  execute: async ({ d }) => { await createMessage(d); } });\n"
            "export const meTool = tool({ name: 'me', description: 'd', parameters: z.object({}),\n"
            "  execute: async () => whoAmI() });\n"
            "export const agent = new Agent({ name: 'm', tools: [mailTool, meTool] });\n")
    assert _codes(tmp_path, {"main.ts": main, "telegram.ts": telegram}, select=("SIB101",)) == [("SIB101", 5)]


@pytest.mark.parametrize("module", ["@openai/agents-realtime", "@openai/agents/realtime"])
def test_sib101_a_voice_agents_tool_from_the_realtime_package(tmp_path, module):
    """evalJ30's wordpecker: `tool` of `@openai/agents-realtime` (the core's, re-exported) in a factory,
    its execute posting through an axios instance of another module."""
    api = ("import axios from 'axios';\nconst api = axios.create({ baseURL: '/api' });\n"
           "export const apiService = {\n  addWord: (listId: string, word: string) => api.post(`/lists/${listId}/words`, { word }),\n"
           "  getWords: (listId: string) => api.get(`/lists/${listId}/words`),\n};\n")
    main = (f"import {{ tool }} from '{module}';\nimport {{ z }} from 'zod';\nimport {{ apiService }} from './api';\n\n"
            "export const createAddWordTool = (listId: string) => tool({ name: 'add_word', description: 'd',\n"
            "  parameters: z.object({ word: z.string() }),\n"
            "  async execute({ word }) { await apiService.addWord(listId, word); return 'added'; } });\n"
            "export const createListTool = (listId: string) => tool({ name: 'list_words', description: 'd',\n"
            "  parameters: z.object({}),\n  async execute() { return (await apiService.getWords(listId)).data; } });\n")
    assert _codes(tmp_path, {"main.ts": main, "api.ts": api}, select=("SIB101",)) == [("SIB101", 5)]


def test_a_request_to_the_apps_own_route_is_what_its_handler_does(tmp_path):
    """evalJ24's openai-realtime-agents: a tool POSTs `/api/responses`, the app's own route proxying
    the Responses API (a model call: no effect); a route that creates a row writes; a path no route
    file serves stays a POST siblint cannot see."""
    responses = ("import OpenAI from 'openai';\nexport async function POST(req: Request) {\n"
                 "  return Response.json(await new OpenAI().responses.create(await req.json()));\n}\n")
    words = ("import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();\n"
             "export async function POST(req: Request, { params }: { params: { id: string } }) {\n"
             "  return Response.json(await prisma.word.create({ data: { listId: params.id } }));\n}\n")

    def post(name: str, path: str) -> str:
        return (f"export const {name} = tool({{ name: '{name}', description: 'd', parameters: z.object({{ q: z.string() }}),\n"
                f"  async execute({{ q }}) {{ return (await fetch(`{path}`, {{ method: 'POST', body: q }})).json(); }} }});\n")

    main = (HEAD + post("ask", "/api/responses") + post("add_word", "/api/lists/${q}/words")
            + post("other", "/api/other") + post("ask_later", "/api/${q}"))
    files = {"src/agents/main.ts": main, "src/app/api/responses/route.ts": responses,
             "src/app/(shop)/api/lists/[id]/words/route.ts": words}
    # A part it cannot read stands for a dynamic segment only: `/api/${q}` may be any route.
    assert _codes(tmp_path, files, "src/agents/main.ts", select=("SIB101",)) == [("SIB101", 5), ("SIB101", 7), ("SIB101", 9)]


@pytest.mark.parametrize("path, pattern", [
    ("/p/src/app/api/responses/route.ts", "/api/responses"),
    ("/p/app/(shop)/api/lists/[id]/words/route.js", "/api/lists/[id]/words"),
    ("/p/app/@modal/api/x/route.tsx", "/api/x"),
    ("/p/src/app/api/responses/handler.ts", None),
    ("/p/src/lib/route.ts", None),
])
def test_the_url_path_an_app_router_route_file_serves(path, pattern):
    from siblint.model.routes import route_pattern

    assert route_pattern(path) == pattern


@pytest.mark.parametrize("document, reported", [("createProject", True), ("getProject", False)])
def test_sib101_an_amplify_graphql_call_with_a_document_another_module_exports(tmp_path, document, reported):
    """A blind set's energy agent: `amplifyClient.graphql({ query: createProject, variables })`, the
    document generated into `graphql/mutations.ts` (`` `mutation ...` as GeneratedMutation<...> ``):
    the options object's `query`, read in the module that exports it."""
    files = {
        "graphql/mutations.ts": "export const createProject = /* GraphQL */ `mutation CreateProject($input: CreateProjectInput!) {\n"
                                "  createProject(input: $input) { id }\n}\n` as GeneratedMutation<{ a: 1 }, { b: 2 }>;\n",
        "graphql/queries.ts": "export const getProject = /* GraphQL */ `query GetProject($id: ID!) {\n  getProject(id: $id) { id }\n}\n`;\n",
        "main.ts": HEAD + "import { generateClient } from 'aws-amplify/data';\n"
                   "import { createProject } from './graphql/mutations';\nimport { getProject } from './graphql/queries';\n"
                   "const client = generateClient();\n"
                   "export const save = tool({\n  name: 'save',\n  parameters: z.object({}),\n"
                   f"  execute: async () => {{ await client.graphql({{ query: {document}, variables: {{ id: 'x' }} }}); return 'ok'; }},\n}});\n",
    }
    assert _codes(tmp_path, files) == ([("SIB101", 7)] if reported else [])


@pytest.mark.parametrize("event, reported", [("tokens", False), ("close", True)])
def test_sib101_a_refreshed_token_saved_by_the_oauth_clients_tokens_handler_is_bookkeeping(tmp_path, event, reported):
    """A blind set's store-admin bot: every Google tool gets its client from `getAuthClient`, which
    registers `oauth2Client.on('tokens', async (t) => { await prisma.users.update(...) })`: the
    client saving its refreshed credentials, not the effect of a tool that lists mail. Another
    event's handler is still followed."""
    files = {
        "main.ts": HEAD + "import { google } from 'googleapis';\nimport { PrismaClient } from '@prisma/client';\n"
                   "const prisma = new PrismaClient();\n"
                   "async function getAuthClient(userId: string) {\n"
                   "  const client = new google.auth.OAuth2('id', 'secret', 'cb');\n"
                   f"  client.on('{event}', async (t: any) => {{ await prisma.users.update({{ where: {{ id: userId }}, data: {{ t }} }}); }});\n"
                   "  return client;\n}\n"
                   "export const search = tool({\n  name: 'search',\n  parameters: z.object({}),\n"
                   "  execute: async () => { const auth = await getAuthClient('u');\n"
                   "    return JSON.stringify(await google.gmail({ version: 'v1', auth }).users.messages.list({ userId: 'me' })); },\n});\n",
    }
    assert _codes(tmp_path, files) == ([("SIB101", 11)] if reported else [])
