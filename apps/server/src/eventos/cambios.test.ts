/**
 * The portal's stream of changes (issue 45, `GET /switch/v1/sesion/cambios`): a session gets the
 * changes of its own merchant in its own mode, whatever its role, as names and ids only; a key is
 * refused; Last-Event-ID resumes without gaps; a session keeps at most four streams open, counted
 * in Postgres across server processes; a payment through another process reaches the stream;
 * signing out ends it, and a server shutting down does not wait for it.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, startServer, type TestServer } from "../../test/harness.js"
import { eventually, paySimulated, writeEvent } from "../../test/webhooksReceiver.js"
import { hashPassword } from "../platform/Passwords.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

const signUp = async () => {
  const codigo = `v${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return { codigo, email, key: `${codigo}:${reply.body.api_key}` }
}

const addUser = async (codigo: string, rol: "cajero" | "lectura") => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@equipo.example`
  await db.query(
    `insert into usuarios (id, comercio_id, email, hash, rol, correo_verificado_at)
     select $1, id, $2, $3, $4, now() from comercios where codigo = $5`,
    [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
  )
  return email
}

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const session = async (email: string): Promise<Session> => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  expect(reply.status).toBe(200)
  const body = (await reply.json()) as { csrf_token: string }
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: body.csrf_token }
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

interface Sse {
  readonly messages: Array<{ id: string; event: string; data: any }>
  /** The last `id` the stream gave (a message's or the opening block's). */
  readonly lastId: () => string
  readonly ended: Promise<void>
  readonly close: () => void
}

const open = (headers: Record<string, string>, lastEventId?: string, base = server.url) => {
  const controller = new AbortController()
  return fetch(`${base}/switch/v1/sesion/cambios`, {
    headers: { ...headers, ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) },
    signal: controller.signal
  }).then((response) => ({ response, controller }))
}

/** Opens the session's stream of changes and collects its messages until closed. */
const follow = async (s: Session, lastEventId?: string, base = server.url): Promise<Sse> => {
  const { response, controller } = await open({ cookie: s.cookie }, lastEventId, base)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/event-stream")
  const messages: Sse["messages"] = []
  let lastId = ""
  const reader = response.body?.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  const ended = (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read()
        if (chunk === undefined || chunk.done) return
        buffer += decoder.decode(chunk.value, { stream: true })
        let end = buffer.indexOf("\n\n")
        while (end !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const fields = Object.fromEntries(
            block
              .split("\n")
              .filter((line) => !line.startsWith(":") && line.includes(": "))
              .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)])
          )
          if (fields.id !== undefined) lastId = fields.id
          if (fields.data !== undefined)
            messages.push({ id: fields.id ?? "", event: fields.event ?? "", data: JSON.parse(fields.data) })
          end = buffer.indexOf("\n\n")
        }
      }
    } catch {}
  })()
  await eventually(() => lastId !== "")
  return { messages, lastId: () => lastId, ended, close: () => controller.abort() }
}

const settle = () => new Promise((r) => setTimeout(r, 800))

describe("the portal's stream of changes", () => {
  it("gives every role of the merchant its own changes in its mode, as names and ids only", async () => {
    const m = await signUp()
    const stranger = await signUp()
    const sessions = [
      await session(m.email),
      await session(await addUser(m.codigo, "cajero")),
      await session(await addUser(m.codigo, "lectura"))
    ]
    const streams = await Promise.all(sessions.map((s) => follow(s)))
    const paid = await paySimulated(server.url, m.key)
    await writeEvent(server.databaseUrl, m.codigo, "live")
    await paySimulated(server.url, stranger.key)
    for (const stream of streams) await eventually(() => stream.messages.length >= 1)
    await settle()
    for (const stream of streams) {
      stream.close()
      expect(stream.messages).toHaveLength(1)
      const [seen] = stream.messages
      expect(seen?.event).toBe("cambio")
      expect(seen?.data).toEqual({ evento: "link.pagado", link_id: paid, txn_id: expect.any(String) })
    }
  })

  it("a session in live mode gets the live changes and not the test ones", async () => {
    const m = await signUp()
    await approveMerchant(server, m.codigo)
    const lectura = await session(await addUser(m.codigo, "lectura"))
    expect((await as(lectura, "POST", "/switch/v1/sesion/modo", { mode: "live" })).status).toBe(200)
    const stream = await follow(lectura)
    await paySimulated(server.url, m.key)
    const [live] = await writeEvent(server.databaseUrl, m.codigo, "live")
    await eventually(() => stream.messages.length >= 1)
    await settle()
    stream.close()
    expect(stream.messages.map((c) => c.data.evento)).toEqual(["link.pagado"])
    const row = await db.query("select data->>'link_id' as link_id from eventos where id = $1", [live?.id])
    expect(stream.messages[0]?.data.link_id).toBe(row.rows[0].link_id)
  })

  it("is for portal sessions only: a key, no caller and a forged cookie are refused", async () => {
    const m = await signUp()
    const withKey = await open({ "x-switch-key": m.key })
    expect(withKey.response.status).toBe(401)
    const nobody = await open({})
    expect(nobody.response.status).toBe(401)
    const forged = await open({ cookie: "switch_sesion=nada" })
    expect(forged.response.status).toBe(401)
  })

  it("resumes after Last-Event-ID with exactly what it missed", async () => {
    const m = await signUp()
    const s = await session(m.email)
    const first = await follow(s)
    const one = await paySimulated(server.url, m.key)
    await eventually(() => first.messages.length >= 1)
    first.close()
    const two = await paySimulated(server.url, m.key)
    const three = await paySimulated(server.url, m.key)
    const again = await follow(s, first.lastId())
    const four = await paySimulated(server.url, m.key)
    await eventually(() => again.messages.length >= 3)
    await settle()
    again.close()
    expect(first.messages.map((c) => c.data.link_id)).toEqual([one])
    expect(again.messages.map((c) => c.data.link_id)).toEqual([two, three, four])
  })

  it("keeps at most four streams open per session, and a closed one frees its place", async () => {
    const m = await signUp()
    const s = await session(m.email)
    const other = await session(m.email)
    const streams = await Promise.all([1, 2, 3, 4].map(() => follow(s)))
    const sixth = await open({ cookie: s.cookie })
    expect(sixth.response.status).toBe(429)
    expect(((await sixth.response.json()) as any).error).toBe("demasiadas_solicitudes")
    // Another session of the same user has its own places.
    const elsewhere = await follow(other)
    elsewhere.close()
    streams[0]?.close()
    const freed = await eventually(async () => {
      const attempt = await open({ cookie: s.cookie })
      if (attempt.response.status === 200) return attempt
      await attempt.response.body?.cancel()
      return null
    }, 5_000)
    freed.controller.abort()
    for (const stream of streams) stream.close()
    await eventually(async () => {
      const rows = await db.query("select count(*)::int as n from flujos_sesion")
      return rows.rows[0].n === 0
    }, 5_000)
  })

  it("ends when the session signs out", async () => {
    const m = await signUp()
    const s = await session(m.email)
    const stream = await follow(s)
    expect((await as(s, "DELETE", "/switch/v1/sesion")).status).toBeLessThan(300)
    await Promise.race([
      stream.ended,
      new Promise((_, reject) => setTimeout(() => reject(new Error("the stream stayed open")), 5_000))
    ])
    stream.close()
  })

  it("works across server processes: changes and the cap are shared, and shutdown does not wait for a stream", async () => {
    const m = await signUp()
    const s = await session(m.email)
    const second = await startServer({ databaseUrl: server.databaseUrl, settings: { apiPorMinuto: 100_000 } })
    const here = await Promise.all([1, 2, 3].map(() => follow(s)))
    const there = await Promise.all([1].map(() => follow(s, undefined, second.url)))
    const refused = await open({ cookie: s.cookie }, undefined, second.url)
    expect(refused.response.status).toBe(429)
    const paid = await paySimulated(second.url, m.key)
    for (const stream of [...here, ...there]) await eventually(() => stream.messages.length >= 1)
    expect(here[0]?.messages[0]?.data.link_id).toBe(paid)
    const started = Date.now()
    await second.close()
    expect(Date.now() - started).toBeLessThan(3_000)
    for (const stream of there)
      await Promise.race([
        stream.ended,
        new Promise((_, reject) => setTimeout(() => reject(new Error("the stream stayed open")), 3_000))
      ])
    for (const stream of here) stream.close()
  })
})
