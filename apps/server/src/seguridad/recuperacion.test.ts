/**
 * The second factor's QR code and recovery codes against the real server: enrolment answers the
 * `otpauth://` URI's QR code as an SVG drawn here (nothing from other hosts); confirming answers
 * ten distinct recovery codes once (`no-store`), kept only hashed; each signs in once in place of
 * the app's code (a second use is `401`), under the same sign-in limit as TOTP codes; making them
 * again needs a code of the app and spends the old ones; removing the second factor forgets them.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freshAddress, startServer, type TestServer } from "../../test/harness.js"
import { freshStep } from "../../test/totpStep.js"
import * as Guesses from "../platform/Guesses.js"
import { totpCode } from "../platform/Totp.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000, proxiesConfiables: ["127.0.0.1"] } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"
const FORMAT = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/

const signUp = async () => {
  const codigo = `r${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return email
}

const signIn = (email: string, codigo?: string, headers: Record<string, string> = {}) =>
  call(server.url, "POST", "/switch/v1/sesion", {
    body: { email, password: PASSWORD, ...(codigo === undefined ? {} : { codigo }) },
    headers: { "x-forwarded-for": freshAddress(), ...headers }
  })

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const session = async (email: string, codigo?: string): Promise<Session> => {
  const reply = await signIn(email, codigo)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: reply.body.csrf_token }
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

/** Signs up and enrols: the secret, the recovery codes and the step used to confirm. */
const enrolled = async () => {
  const email = await signUp()
  const s = await session(email)
  const step = await freshStep()
  const started = await as(s, "POST", "/switch/v1/sesion/totp")
  const secreto = started.body.secreto as string
  const confirmed = await as(s, "POST", "/switch/v1/sesion/totp/confirmar", {
    codigo: totpCode(secreto, step - 1)
  })
  expect(confirmed.status).toBe(200)
  return { email, s, secreto, step, codigos: confirmed.body.codigos_recuperacion as Array<string> }
}

describe("TOTP QR code and recovery codes", () => {
  it("enrolment draws the otpauth URI's QR code as an SVG here; confirming answers ten codes once, stored hashed", async () => {
    const email = await signUp()
    const s = await session(email)
    const step = await freshStep()
    const started = await as(s, "POST", "/switch/v1/sesion/totp")
    expect(started.status).toBe(200)
    expect(started.headers.get("cache-control")).toContain("no-store")
    const svg = started.body.qr_svg as string
    expect(svg.startsWith("<svg")).toBe(true)
    expect(svg).toContain("<path")
    // Nothing in it is fetched from elsewhere: no href, no URL but the SVG namespace.
    expect(svg).not.toMatch(/href|url\(/i)
    expect(svg.replace("http://www.w3.org/2000/svg", "")).not.toMatch(/https?:/)
    expect(started.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\//)

    const confirmed = await as(s, "POST", "/switch/v1/sesion/totp/confirmar", {
      codigo: totpCode(started.body.secreto, step)
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.headers.get("cache-control")).toContain("no-store")
    const codigos = confirmed.body.codigos_recuperacion as Array<string>
    expect(confirmed.body.totp).toBe(true)
    expect(codigos).toHaveLength(10)
    expect(new Set(codigos).size).toBe(10)
    for (const c of codigos) expect(c).toMatch(FORMAT)
    const stored = await db.query(
      "select r.hash from codigos_recuperacion r join usuarios u on u.id = r.usuario_id where lower(u.email) = $1",
      [email]
    )
    expect(stored.rows).toHaveLength(10)
    const text = JSON.stringify(stored.rows)
    for (const c of codigos) expect(text).not.toContain(c)
    // The session view and other answers never show them again.
    expect(JSON.stringify((await as(s, "GET", "/switch/v1/sesion")).body)).not.toContain(codigos[0])
  })

  it("a recovery code signs in once in place of the app's code; its second use is 401, another code still works", async () => {
    const { email, codigos } = await enrolled()
    const [first, second] = codigos as [string, string]
    const used = await signIn(email, first)
    expect(used.status).toBe(200)
    const again = await signIn(email, first)
    expect(again.status).toBe(401)
    expect(again.body.error).toBe("unauthorized")
    // Typed in capitals, with a space for the hyphen: still the code.
    expect((await signIn(email, second.toUpperCase().replace("-", " "))).status).toBe(200)
    expect((await signIn(email, "zzzzz-zzzzz")).status).toBe(401)
    const left = await db.query(
      "select count(*)::int as n from codigos_recuperacion r join usuarios u on u.id = r.usuario_id where lower(u.email) = $1 and r.usado_at is null",
      [email]
    )
    expect(left.rows[0].n).toBe(8)
    const audit = await db.query(
      "select a.accion from actividad a join usuarios u on u.id = a.usuario_id where lower(u.email) = $1 and a.accion = 'ingreso_codigo_recuperacion'",
      [email]
    )
    expect(audit.rows).toHaveLength(2)
  })

  it("wrong recovery codes count in the sign-in limit: past it even a right one is 429 and stays unspent", async () => {
    const { email, codigos } = await enrolled()
    const attacker = { "x-forwarded-for": freshAddress() }
    for (let i = 0; i < Guesses.PORTAL.perAccountAddress; i++) {
      expect((await signIn(email, `aaaaa-aaaa${"23456789"[i]}`, attacker)).status).toBe(401)
    }
    const refused = await signIn(email, codigos[0], attacker)
    expect(refused.status).toBe(429)
    const unspent = await db.query(
      "select count(*)::int as n from codigos_recuperacion r join usuarios u on u.id = r.usuario_id where lower(u.email) = $1 and r.usado_at is null",
      [email]
    )
    expect(unspent.rows[0].n).toBe(10)
  })

  it("new codes need a code of the app and spend the old ones; removing the second factor forgets them", async () => {
    const { email, s, secreto, step, codigos } = await enrolled()
    expect(await as(s, "POST", "/switch/v1/sesion/totp/recuperacion", { codigo: "000000" })).toMatchObject({
      status: 400,
      body: { error: "codigo_invalido" }
    })
    expect((await as(s, "POST", "/switch/v1/sesion/totp/recuperacion", { codigo: "abc" })).body.error).toBe(
      "validation"
    )
    const made = await as(s, "POST", "/switch/v1/sesion/totp/recuperacion", {
      codigo: totpCode(secreto, step)
    })
    expect(made.status).toBe(200)
    expect(made.headers.get("cache-control")).toContain("no-store")
    const fresh = made.body.codigos_recuperacion as Array<string>
    expect(fresh).toHaveLength(10)
    expect(fresh.filter((c) => codigos.includes(c))).toEqual([])
    expect((await signIn(email, codigos[0])).status).toBe(401)
    expect((await signIn(email, fresh[0])).status).toBe(200)

    const off = await as(s, "POST", "/switch/v1/sesion/totp/desactivar", {
      codigo: totpCode(secreto, step + 1)
    })
    expect(off.status).toBe(200)
    const rows = await db.query(
      "select count(*)::int as n from codigos_recuperacion r join usuarios u on u.id = r.usuario_id where lower(u.email) = $1",
      [email]
    )
    expect(rows.rows[0].n).toBe(0)
    // Without a second factor there is nothing to make codes for.
    expect(
      (await as(s, "POST", "/switch/v1/sesion/totp/recuperacion", { codigo: "123456" })).body.error
    ).toBe("codigo_invalido")
  })
})
