/**
 * The audit log against the real server: sign-ins (good, failed, locked out), every unsafe
 * request of a session with its result (refused ones too), read by the owner only, paged, one
 * merchant's never shown to another, and nothing secret in it.
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
  const codigo = `a${randomUUID().slice(0, 8)}`
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
    `insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, $4 from comercios where codigo = $5`,
    [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
  )
  return email
}

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signIn = (email: string, password = PASSWORD) =>
  call(server.url, "POST", "/switch/v1/sesion", { body: { email, password } })

const session = async (email: string): Promise<Session> => {
  const reply = await signIn(email)
  expect(reply.status).toBe(200)
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: reply.body.csrf_token }
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

describe("audit log", () => {
  it("records sign-ins, failed ones and each unsafe request with its result; the owner reads it, newest first, with nothing secret", async () => {
    const { codigo, email } = await signUp()
    const cajeroEmail = await addUser(codigo, "cajero")
    expect((await signIn(email, "no-es-la-clave")).status).toBe(401)
    const owner = await session(email)
    const cajero = await session(cajeroEmail)
    const link = await as(cajero, "POST", "/switch/v1/links", { monto: 12, concepto: "Pan" })
    expect(link.status).toBe(201)
    expect((await as(cajero, "POST", "/switch/v1/llaves", { label: "x" })).status).toBe(403)
    // Reads are not written.
    expect((await as(cajero, "GET", "/switch/v1/links")).status).toBe(200)
    expect((await as(cajero, "DELETE", "/switch/v1/sesion")).status).toBe(200)

    const reply = await as(owner, "GET", "/switch/v1/actividad")
    expect(reply.status).toBe(200)
    const entries = reply.body as Array<{
      id: string
      usuario: { email: string }
      accion: string
      objeto: string | null
      ip: string
      resultado: number
    }>
    const seen = entries.map((e) => [e.usuario.email, e.accion, e.objeto, e.resultado])
    expect(seen).toEqual([
      [cajeroEmail, "DELETE", "/switch/v1/sesion", 200],
      [cajeroEmail, "POST", "/switch/v1/llaves", 403],
      [cajeroEmail, "POST", "/switch/v1/links", 201],
      [cajeroEmail, "ingreso", null, 200],
      [email, "ingreso", null, 200],
      [email, "ingreso_fallido", null, 401]
    ])
    expect(entries.every((e) => e.ip === "127.0.0.1")).toBe(true)
    const text = JSON.stringify(entries)
    for (const secret of [
      PASSWORD,
      "no-es-la-clave",
      owner.csrf,
      cajero.csrf,
      owner.cookie.split("=")[1] ?? "x"
    ])
      expect(text).not.toContain(secret)
    const raw = await db.query("select * from actividad")
    expect(JSON.stringify(raw.rows)).not.toContain(PASSWORD)

    // Paged: limit and starting_after.
    const first = await as(owner, "GET", "/switch/v1/actividad?limit=2")
    expect(first.body).toHaveLength(2)
    const next = await as(owner, "GET", `/switch/v1/actividad?limit=2&starting_after=${first.body[1].id}`)
    expect(next.body.map((e: { id: string }) => e.id)).toEqual([entries[2]?.id, entries[3]?.id])
    expect(await as(owner, "GET", "/switch/v1/actividad?limit=0")).toMatchObject({
      status: 400,
      body: { parametro: "limit" }
    })
    expect(await as(owner, "GET", "/switch/v1/actividad?starting_after=abc")).toMatchObject({
      status: 400,
      body: { parametro: "starting_after" }
    })
  })

  it("records a lock-out and a request refused for its CSRF token", async () => {
    const { email } = await signUp()
    const owner = await session(email)
    for (let i = 0; i < 5; i++) await signIn(email, "no-es-la-clave")
    expect((await signIn(email)).status).toBe(429)
    const noCsrf = await call(server.url, "POST", "/switch/v1/links", {
      body: { monto: 1, concepto: "x" },
      headers: { cookie: owner.cookie }
    })
    expect(noCsrf.status).toBe(403)
    const entries = (await as(owner, "GET", "/switch/v1/actividad?limit=3")).body as Array<{
      accion: string
      resultado: number
    }>
    expect(entries.map((e) => [e.accion, e.resultado])).toEqual([
      ["POST", 403],
      ["ingreso_bloqueado", 429],
      ["ingreso_fallido", 401]
    ])
  })

  it("only the owner reads it (cajero and lectura 403 rol_no_permitido, a key 401), and only its own merchant's", async () => {
    const a = await signUp()
    const b = await signUp()
    const ownerA = await session(a.email)
    await session(b.email)
    for (const rol of ["cajero", "lectura"] as const) {
      const user = await session(await addUser(a.codigo, rol))
      expect(await as(user, "GET", "/switch/v1/actividad")).toMatchObject({
        status: 403,
        body: { error: "rol_no_permitido" }
      })
    }
    expect((await call(server.url, "GET", "/switch/v1/actividad", { key: a.key })).status).toBe(401)
    const mine = (await as(ownerA, "GET", "/switch/v1/actividad?limit=200")).body as Array<{
      usuario: { email: string }
    }>
    expect(mine.length).toBeGreaterThan(0)
    expect(mine.some((e) => e.usuario.email === b.email)).toBe(false)
  })
})
