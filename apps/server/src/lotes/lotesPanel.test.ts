/**
 * Batches made from the portal (a session, as the Lotes screen sends them): their links are
 * `origen` `panel` (a key's stay `api`), a `cajero` may create them and `lectura` may not, and
 * another merchant's session never sees them.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
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
  const codigo = `l${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return { codigo, email, key: `${codigo}:${reply.body.api_key}` }
}

const session = async (email: string) => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  expect(reply.status).toBe(200)
  const body = (await reply.json()) as { csrf_token: string }
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: body.csrf_token }
}

const as = (s: { cookie: string; csrf: string }, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

const addUser = async (codigo: string, rol: "cajero" | "lectura") => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@equipo.example`
  await db.query(
    `insert into usuarios (id, comercio_id, email, hash, rol)
     select $1, id, $2, $3, $4 from comercios where codigo = $5`,
    [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
  )
  return email
}

const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ monto: 10 + i, concepto: `Cuota ${i + 1}` }))

describe("batches from the portal", () => {
  it("a session's batch makes links with origen panel; a key's, origen api", async () => {
    const { email, key } = await signUp()
    const s = await session(email)
    const made = await as(s, "POST", "/switch/v1/lotes", { nombre: "Desde el panel", items: items(3) })
    expect(made.status).toBe(201)
    const link = await call(server.url, "GET", `/switch/v1/links/${made.body.items[0].link_id}`, { key })
    expect(link.body.origen).toBe("panel")
    const byKey = await call(server.url, "POST", "/switch/v1/lotes", { key, body: { items: items(1) } })
    expect(byKey.status).toBe(201)
    const keyLink = await call(server.url, "GET", `/switch/v1/links/${byKey.body.items[0].link_id}`, { key })
    expect(keyLink.body.origen).toBe("api")
    const origins = await db.query(
      "select origen, count(*)::int as n from links where lote_id = any($1) group by origen order by origen",
      [[made.body.id, byKey.body.id]]
    )
    expect(origins.rows).toEqual([
      { origen: "api", n: 1 },
      { origen: "panel", n: 3 }
    ])
  })

  it("a cajero creates and cancels a batch; lectura reads it but may not create or cancel", async () => {
    const { codigo, email } = await signUp()
    const owner = await session(email)
    const cajero = await session(await addUser(codigo, "cajero"))
    const lectura = await session(await addUser(codigo, "lectura"))
    const made = await as(cajero, "POST", "/switch/v1/lotes", { items: items(2) })
    expect(made.status).toBe(201)
    const refused = await as(lectura, "POST", "/switch/v1/lotes", { items: items(1) })
    expect(refused.status).toBe(403)
    expect((await as(lectura, "POST", `/switch/v1/lotes/${made.body.id}/cancelar`)).status).toBe(403)
    expect((await as(lectura, "GET", `/switch/v1/lotes/${made.body.id}`)).body.items).toHaveLength(2)
    const cancelled = await as(cajero, "POST", `/switch/v1/lotes/${made.body.id}/cancelar`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.cancelados).toBe(2)
    const listed = await as(owner, "GET", "/switch/v1/lotes")
    expect(listed.body.map((l: { id: string }) => l.id)).toEqual([made.body.id])
  })

  it("another merchant's session neither lists nor reads nor cancels the batch", async () => {
    const a = await signUp()
    const b = await signUp()
    const made = await as(await session(a.email), "POST", "/switch/v1/lotes", { items: items(1) })
    const other = await session(b.email)
    expect((await as(other, "GET", "/switch/v1/lotes")).body).toEqual([])
    expect((await as(other, "GET", `/switch/v1/lotes/${made.body.id}`)).status).toBe(404)
    expect((await as(other, "POST", `/switch/v1/lotes/${made.body.id}/cancelar`)).status).toBe(404)
  })
})
