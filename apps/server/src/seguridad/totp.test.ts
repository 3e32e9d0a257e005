/**
 * The second factor against the real server: enrolment (secret once, confirmed by a code, kept
 * sealed), sign-in as password then code, a replayed code refused, wrong codes counted in the
 * sign-in limit (also when 100 arrive at once), removal only with a code and with its own limit
 * on wrong codes, and live mode closed to an approved merchant's owner without it (`403
 * totp_requerido`). The server trusts 127.0.0.1 as a proxy, so a test stands for another client
 * with `x-forwarded-for`.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  approveMerchant,
  call,
  freshAddress,
  startServer,
  type TestServer,
  verifyEmail
} from "../../test/harness.js"
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

const signUp = async () => {
  const codigo = `t${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return { codigo, email, key: `${codigo}:${reply.body.api_key}` }
}

const signIn = (email: string, codigo?: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  call(server.url, "POST", "/switch/v1/sesion", {
    body: { email, password, ...(codigo === undefined ? {} : { codigo }) },
    headers
  })

/** `count` codes of 6 digits that are none of the codes `secreto` accepts around `step`. */
const wrongCodes = (secreto: string, step: number, count: number) => {
  const valid = new Set([step - 1, step, step + 1].map((s) => totpCode(secreto, s)))
  return Array.from({ length: count + valid.size }, (_, i) => String(i * 7919).padStart(6, "0"))
    .filter((code) => !valid.has(code))
    .slice(0, count)
}

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

/** Enrols the user of `s` and confirms with the code of `step`; the secret. */
const enrol = async (s: Session, step: number) => {
  const started = await as(s, "POST", "/switch/v1/sesion/totp")
  expect(started.status).toBe(200)
  const secreto = started.body.secreto as string
  expect(started.body.otpauth_uri).toContain(`secret=${secreto}`)
  expect(
    await as(s, "POST", "/switch/v1/sesion/totp/confirmar", { codigo: totpCode(secreto, step) })
  ).toMatchObject({
    status: 200,
    body: { totp: true }
  })
  return secreto
}

describe("TOTP", () => {
  it("enrolment: a wrong code does not confirm, the right one does, and the secret is stored sealed", async () => {
    const { email } = await signUp()
    const s = await session(email)
    expect((await as(s, "GET", "/switch/v1/sesion")).body.totp).toBe(false)
    const step = await freshStep()
    const started = await as(s, "POST", "/switch/v1/sesion/totp")
    const secreto = started.body.secreto as string
    const wrong = totpCode(secreto, step + 5)
    expect(await as(s, "POST", "/switch/v1/sesion/totp/confirmar", { codigo: wrong })).toMatchObject({
      status: 400,
      body: { error: "codigo_invalido" }
    })
    expect((await as(s, "GET", "/switch/v1/sesion")).body.totp).toBe(false)
    await as(s, "POST", "/switch/v1/sesion/totp/confirmar", { codigo: totpCode(secreto, step) })
    expect((await as(s, "GET", "/switch/v1/sesion")).body.totp).toBe(true)
    const stored = await db.query("select totp_secreto from usuarios where lower(email) = $1", [email])
    expect(stored.rows[0].totp_secreto).toMatch(/^v1:/)
    expect(stored.rows[0].totp_secreto).not.toContain(secreto)
    expect(await as(s, "POST", "/switch/v1/sesion/totp")).toMatchObject({
      status: 409,
      body: { error: "totp_ya_activo" }
    })
  })

  it("sign-in is password then code; a replayed code is refused", async () => {
    const { email } = await signUp()
    const step = await freshStep()
    const secreto = await enrol(await session(email), step - 1)
    expect(await signIn(email)).toMatchObject({ status: 403, body: { error: "codigo_requerido" } })
    // A wrong password never reaches the code question.
    expect((await signIn(email, undefined, "no-es-la-clave")).status).toBe(401)
    const code = totpCode(secreto, step)
    expect((await signIn(email, code)).status).toBe(200)
    expect(await signIn(email, code)).toMatchObject({ status: 401 })
    // The step before the last accepted one is refused too.
    expect((await signIn(email, totpCode(secreto, step - 1))).status).toBe(401)
    expect((await signIn(email, totpCode(secreto, step + 1))).status).toBe(200)
  })

  it("wrong codes count in the sign-in limit: past it even the right code is 429", async () => {
    const { email } = await signUp()
    const step = await freshStep()
    const secreto = await enrol(await session(email), step - 1)
    for (let i = 0; i < 5; i++) expect((await signIn(email, "000000")).status).toBeGreaterThanOrEqual(401)
    expect((await signIn(email, totpCode(secreto, step))).status).toBe(429)
  })

  it("100 codes at once after the right password get at most 5 checks: the right code after them is refused", async () => {
    const { email } = await signUp()
    const step = await freshStep()
    const secreto = await enrol(await session(email), step - 1)
    const attacker = { "x-forwarded-for": freshAddress() }
    const RIGHT = 84
    const codes = wrongCodes(secreto, step, 100)
    codes[RIGHT] = totpCode(secreto, step)
    const replies = await Promise.all(codes.map((codigo) => signIn(email, codigo, PASSWORD, attacker)))
    const checked = replies.filter((reply) => reply.status !== 429)
    expect(checked.length).toBe(Guesses.PORTAL.perAccountAddress)
    for (const reply of checked) expect(reply.status).toBe(401)
    expect(replies[RIGHT]?.status).toBe(429)
    // The code was never checked, so it is still good for the owner at another address.
    const owner = { "x-forwarded-for": freshAddress() }
    expect((await signIn(email, totpCode(secreto, step), PASSWORD, owner)).status).toBe(200)
  })

  it("turning TOTP off has its own limit: past 5 wrong codes, even 100 at once, the right code is 429 with Retry-After", async () => {
    const { email } = await signUp()
    const step = await freshStep()
    const s = await session(email)
    const secreto = await enrol(s, step - 1)
    const RIGHT = 84
    const codes = wrongCodes(secreto, step, 100)
    codes[RIGHT] = totpCode(secreto, step)
    const replies = await Promise.all(
      codes.map((codigo) => as(s, "POST", "/switch/v1/sesion/totp/desactivar", { codigo }))
    )
    const checked = replies.filter((reply) => reply.status !== 429)
    expect(checked.length).toBe(Guesses.TOTP_DESACTIVAR.perAccount)
    for (const reply of checked) expect(reply.body).toMatchObject({ error: "codigo_invalido" })
    const refused = replies[RIGHT]
    expect(refused?.status).toBe(429)
    expect(refused?.body).toMatchObject({ error: "demasiadas_solicitudes", reintentar_en: 900 })
    expect(refused?.headers.get("retry-after")).toBe("900")
    // One at a time too, and from another session of the user: still locked, the factor still on.
    const other = await session(email, totpCode(secreto, step))
    const again = await as(other, "POST", "/switch/v1/sesion/totp/desactivar", {
      codigo: totpCode(secreto, step + 1)
    })
    expect(again.status).toBe(429)
    expect((await as(s, "GET", "/switch/v1/sesion")).body.totp).toBe(true)
  })

  it("removal needs a valid code; then sign-in takes the password alone", async () => {
    const { email } = await signUp()
    const step = await freshStep()
    const s = await session(email)
    const secreto = await enrol(s, step - 1)
    expect(await as(s, "POST", "/switch/v1/sesion/totp/desactivar", { codigo: "123" })).toMatchObject({
      status: 400,
      body: { error: "validation" }
    })
    expect(
      await as(s, "POST", "/switch/v1/sesion/totp/desactivar", { codigo: totpCode(secreto, step - 1) })
    ).toMatchObject({ status: 400, body: { error: "codigo_invalido" } })
    expect(
      await as(s, "POST", "/switch/v1/sesion/totp/desactivar", { codigo: totpCode(secreto, step) })
    ).toMatchObject({ status: 200, body: { totp: false } })
    expect((await signIn(email)).status).toBe(200)
  })

  it("an approved merchant's owner without TOTP cannot switch to live (403 totp_requerido); with it, can", async () => {
    const { email, codigo } = await signUp()
    await approveMerchant(server, codigo)
    await verifyEmail(server.url, email)
    const s = await session(email)
    expect(await as(s, "POST", "/switch/v1/sesion/modo", { mode: "live" })).toMatchObject({
      status: 403,
      body: { error: "totp_requerido" }
    })
    const step = await freshStep()
    const secreto = await enrol(s, step - 1)
    expect(await as(s, "POST", "/switch/v1/sesion/modo", { mode: "live" })).toMatchObject({
      status: 200,
      body: { mode: "live", totp: true }
    })
    // Removing the factor takes the owner's sessions back to test.
    await as(s, "POST", "/switch/v1/sesion/totp/desactivar", { codigo: totpCode(secreto, step) })
    expect((await as(s, "GET", "/switch/v1/sesion")).body.mode).toBe("test")
  })

  it("a key is 401 on the TOTP routes", async () => {
    const { key } = await signUp()
    for (const path of [
      "/switch/v1/sesion/totp",
      "/switch/v1/sesion/totp/confirmar",
      "/switch/v1/sesion/totp/desactivar"
    ])
      expect((await call(server.url, "POST", path, { key, body: { codigo: "123456" } })).status, path).toBe(
        401
      )
  })
})
