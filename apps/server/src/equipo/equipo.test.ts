/**
 * The team and its one-time links, against the real server with an SMTP capture standing for
 * the mail server: a sign-up without a password mails the owner a link; a link sets the
 * password once and expires; "olvidé mi contraseña" answers alike for any e-mail; the owner
 * invites, changes roles and removes users (their sessions end at once); the last owner stays;
 * other roles and keys are refused. A password set through a link lifts its account's sign-in
 * lock. The server trusts 127.0.0.1 as a proxy, so a test stands for another client with
 * `x-forwarded-for`.
 */
import { randomUUID } from "node:crypto"
import { Option, Redacted } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freshAddress, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { type SmtpCapture, startSmtpCapture, unquote } from "../../test/smtpCapture.js"
import * as Guesses from "../platform/Guesses.js"

let server: TestServer
let smtp: SmtpCapture
let db: Pg.Client

beforeAll(async () => {
  smtp = await startSmtpCapture()
  server = await startServer({
    settings: {
      smtpUrl: Option.some(Redacted.make(smtp.url)),
      apiPorMinuto: 100_000,
      proxiesConfiables: ["127.0.0.1"]
    }
  })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
  await smtp?.close()
})

const PASSWORD = "una-clave-larga-1"

/** The token of the newest link mailed to `to` (waits for `count` mails to have arrived). */
const linkToken = async (to: string, count = 1) => {
  const until = Date.now() + 5_000
  let mails = await smtp.waitFor(to)
  while (mails.length < count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    mails = smtp.mails.filter((mail) => mail.to.includes(to))
  }
  expect(mails.length).toBeGreaterThanOrEqual(count)
  const text = unquote(mails[mails.length - 1]?.raw ?? "")
  const match = /http:\/\/pagos\.test\/panel\/contrasena#token=([\w-]+)/.exec(text)
  expect(match, text).not.toBeNull()
  return match?.[1] as string
}

// Each from an address of its own: the file sets more passwords than one address may in an hour.
const define = (token: string, password = PASSWORD) =>
  call(server.url, "POST", "/switch/v1/contrasena", {
    body: { token, password },
    headers: { "x-forwarded-for": freshAddress() }
  })

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signIn = async (email: string, password = PASSWORD, from?: string) => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(from === undefined ? {} : { "x-forwarded-for": from })
    },
    body: JSON.stringify({ email, password })
  })
  const body = (await reply.json()) as { csrf_token: string }
  const cookie = (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? ""
  return { status: reply.status, session: { cookie, csrf: body.csrf_token } }
}

const session = async (email: string, password = PASSWORD): Promise<Session> => {
  const reply = await signIn(email, password)
  expect(reply.status).toBe(200)
  return reply.session
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

/** A merchant signed up without a password whose owner then set it through the mailed link. */
const ownerMerchant = async () => {
  const { codigo, key } = await registerMerchant(server.url)
  const email = `${codigo}@example.com`
  expect((await define(await linkToken(email))).status).toBe(200)
  return { codigo, key, email, owner: await session(email) }
}

const invite = async (owner: Session, rol: "propietario" | "cajero" | "lectura") => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@equipo.example`
  const reply = await as(owner, "POST", "/switch/v1/equipo", { email, rol })
  expect(reply.status).toBe(201)
  expect(await define(await linkToken(email))).toMatchObject({ status: 200 })
  return { id: reply.body.id as string, email, session: await session(email) }
}

describe("one-time links", () => {
  it("a sign-up without a password mails the owner a link, which sets it once; the owner can then sign in", async () => {
    const { codigo } = await registerMerchant(server.url)
    const email = `${codigo}@example.com`
    expect((await signIn(email)).status).toBe(401)
    const token = await linkToken(email)
    // The database keeps only the token's hash.
    const stored = await db.query("select token_hash from enlaces_usuario where token_hash = $1", [token])
    expect(stored.rows).toHaveLength(0)
    expect(await define(token)).toMatchObject({ status: 200, body: { ok: true, email } })
    expect((await signIn(email)).status).toBe(200)
    // Single use: the same link again is refused, and the password stays.
    expect(await define(token, "otra-clave-larga-2")).toMatchObject({
      status: 400,
      body: { error: "enlace_invalido" }
    })
    expect((await signIn(email, "otra-clave-larga-2")).status).toBe(401)
  })

  it("an expired link, an unknown token and a short password are refused", async () => {
    const { codigo } = await registerMerchant(server.url)
    const token = await linkToken(`${codigo}@example.com`)
    expect(await define(token, "corta")).toMatchObject({ status: 400, body: { error: "validation" } })
    await db.query(
      "update enlaces_usuario set expires_at = now() - interval '1 second' where used_at is null"
    )
    expect(await define(token)).toMatchObject({ status: 400, body: { error: "enlace_invalido" } })
    expect(await define("no-es-un-token")).toMatchObject({ status: 400, body: { error: "enlace_invalido" } })
  })

  it("'olvidé mi contraseña' answers the same for a user and for an unknown e-mail; the link sets a new password and ends the user's sessions", async () => {
    const { email, owner } = await ownerMerchant()
    const known = await call(server.url, "POST", "/switch/v1/contrasena/olvido", { body: { email } })
    const unknown = await call(server.url, "POST", "/switch/v1/contrasena/olvido", {
      body: { email: `nadie-${randomUUID().slice(0, 8)}@example.com` }
    })
    expect(known.status).toBe(202)
    expect(unknown.status).toBe(202)
    expect(unknown.body).toEqual(known.body)
    const token = await linkToken(email, 2)
    expect((await define(token, "nueva-clave-larga-3")).status).toBe(200)
    expect((await as(owner, "GET", "/switch/v1/sesion")).status).toBe(401)
    expect((await signIn(email)).status).toBe(401)
    expect((await signIn(email, "nueva-clave-larga-3")).status).toBe(200)
  })

  it("a new password set through the link lifts its account's sign-in lock at every address, and no other account's", async () => {
    const { email } = await ownerMerchant()
    const other = await ownerMerchant()
    const { perAccount, perAccountAddress } = Guesses.PORTAL
    const addresses = Array.from({ length: Math.ceil(perAccount / perAccountAddress) }, freshAddress)
    await Promise.all(
      addresses.map(async (from) => {
        for (let i = 0; i < perAccountAddress; i++)
          expect((await signIn(email, "mala-clave-larga", from)).status).toBe(401)
      })
    )
    const elsewhere = freshAddress()
    expect((await signIn(email, PASSWORD, elsewhere)).status).toBe(429)
    const otherAddress = freshAddress()
    for (let i = 0; i < perAccountAddress; i++)
      expect((await signIn(other.email, "mala-clave-larga", otherAddress)).status).toBe(401)
    expect((await signIn(other.email, PASSWORD, otherAddress)).status).toBe(429)
    await call(server.url, "POST", "/switch/v1/contrasena/olvido", { body: { email } })
    expect((await define(await linkToken(email, 2), "nueva-clave-larga-4")).status).toBe(200)
    // "Ya puedes entrar" holds: from elsewhere, and from an address that had used up its own guesses.
    expect((await signIn(email, "nueva-clave-larga-4", elsewhere)).status).toBe(200)
    expect((await signIn(email, "nueva-clave-larga-4", addresses[0])).status).toBe(200)
    expect((await signIn(other.email, PASSWORD, otherAddress)).status).toBe(429)
  })

  it("a newer link voids the earlier unused one", async () => {
    const { email } = await ownerMerchant()
    await call(server.url, "POST", "/switch/v1/contrasena/olvido", { body: { email } })
    const first = await linkToken(email, 2)
    await call(server.url, "POST", "/switch/v1/contrasena/olvido", { body: { email } })
    const second = await linkToken(email, 3)
    expect(await define(first)).toMatchObject({ status: 400, body: { error: "enlace_invalido" } })
    expect((await define(second)).status).toBe(200)
  })

  it("no mail carries the password that was set", async () => {
    for (const mail of smtp.mails) expect(unquote(mail.raw)).not.toContain(PASSWORD)
  })
})

describe("team", () => {
  it("the owner invites a cajero, who sets a password through the mail and signs in with that role", async () => {
    const { owner, codigo } = await ownerMerchant()
    const cajero = await invite(owner, "cajero")
    const me = await as(cajero.session, "GET", "/switch/v1/sesion")
    expect(me.body).toMatchObject({ usuario: { email: cajero.email, rol: "cajero" }, comercio: { codigo } })
    const list = await as(owner, "GET", "/switch/v1/equipo")
    expect(list.status).toBe(200)
    expect(list.body.map((u: { email: string; estado: string }) => [u.email, u.estado])).toContainEqual([
      cajero.email,
      "activo"
    ])
  })

  it("an invited user shows as invitado until the link is used, and cannot sign in before", async () => {
    const { owner } = await ownerMerchant()
    const email = `inv-${randomUUID().slice(0, 8)}@equipo.example`
    const reply = await as(owner, "POST", "/switch/v1/equipo", { email, rol: "lectura" })
    expect(reply.body).toMatchObject({ email, rol: "lectura", estado: "invitado" })
    expect((await signIn(email, "")).status).toBe(400)
    expect((await signIn(email)).status).toBe(401)
  })

  it("inviting an e-mail already in the team (the owner's own) is 409 usuario_duplicado", async () => {
    const { owner, email } = await ownerMerchant()
    expect(await as(owner, "POST", "/switch/v1/equipo", { email, rol: "cajero" })).toMatchObject({
      status: 409,
      body: { error: "usuario_duplicado" }
    })
  })

  it("a role change applies to the user's open session at once", async () => {
    const { owner } = await ownerMerchant()
    const user = await invite(owner, "cajero")
    expect((await as(user.session, "POST", "/switch/v1/links", { monto: 100, concepto: "x" })).status).toBe(
      201
    )
    expect(await as(owner, "PATCH", `/switch/v1/equipo/${user.id}`, { rol: "lectura" })).toMatchObject({
      status: 200,
      body: { rol: "lectura" }
    })
    expect(await as(user.session, "POST", "/switch/v1/links", { monto: 100, concepto: "x" })).toMatchObject({
      status: 403,
      body: { error: "rol_no_permitido" }
    })
  })

  it("removing a user ends their sessions at once", async () => {
    const { owner } = await ownerMerchant()
    const user = await invite(owner, "cajero")
    expect((await as(user.session, "GET", "/switch/v1/links")).status).toBe(200)
    expect(await as(owner, "DELETE", `/switch/v1/equipo/${user.id}`)).toMatchObject({
      status: 200,
      body: { id: user.id, eliminado: true, sesiones_cerradas: 1 }
    })
    expect((await as(user.session, "GET", "/switch/v1/links")).status).toBe(401)
    expect((await signIn(user.email)).status).toBe(401)
  })

  it("the last owner can be neither demoted nor removed; with a second owner, either can", async () => {
    const { owner } = await ownerMerchant()
    const [me] = (await as(owner, "GET", "/switch/v1/equipo")).body as Array<{ id: string }>
    const id = me?.id as string
    expect(await as(owner, "PATCH", `/switch/v1/equipo/${id}`, { rol: "cajero" })).toMatchObject({
      status: 409,
      body: { error: "ultimo_propietario" }
    })
    expect(await as(owner, "DELETE", `/switch/v1/equipo/${id}`)).toMatchObject({
      status: 409,
      body: { error: "ultimo_propietario" }
    })
    // An owner invited but not yet active does not count.
    const pending = await as(owner, "POST", "/switch/v1/equipo", {
      email: `p-${randomUUID().slice(0, 8)}@equipo.example`,
      rol: "propietario"
    })
    expect(pending.status).toBe(201)
    expect((await as(owner, "PATCH", `/switch/v1/equipo/${id}`, { rol: "cajero" })).status).toBe(409)
    const second = await invite(owner, "propietario")
    expect((await as(owner, "PATCH", `/switch/v1/equipo/${id}`, { rol: "lectura" })).status).toBe(200)
    expect(await as(second.session, "DELETE", `/switch/v1/equipo/${second.id}`)).toMatchObject({
      status: 409,
      body: { error: "ultimo_propietario" }
    })
  })

  it("cajero and lectura are refused every team route with 403 rol_no_permitido; a key is 401", async () => {
    const { owner, key } = await ownerMerchant()
    const cajero = await invite(owner, "cajero")
    const lectura = await invite(owner, "lectura")
    for (const user of [cajero, lectura]) {
      for (const [method, path, body] of [
        ["GET", "/switch/v1/equipo", undefined],
        ["POST", "/switch/v1/equipo", { email: "x@example.com", rol: "propietario" }],
        ["PATCH", `/switch/v1/equipo/${user.id}`, { rol: "propietario" }],
        ["DELETE", `/switch/v1/equipo/${cajero.id}`, undefined]
      ] as const)
        expect(await as(user.session, method, path, body), `${method} ${path}`).toMatchObject({
          status: 403,
          body: { error: "rol_no_permitido" }
        })
    }
    expect((await call(server.url, "GET", "/switch/v1/equipo", { key })).status).toBe(401)
  })

  it("another merchant's user is not found: no change, no removal", async () => {
    const a = await ownerMerchant()
    const b = await ownerMerchant()
    const userOfB = await invite(b.owner, "cajero")
    expect((await as(a.owner, "PATCH", `/switch/v1/equipo/${userOfB.id}`, { rol: "lectura" })).status).toBe(
      404
    )
    expect((await as(a.owner, "DELETE", `/switch/v1/equipo/${userOfB.id}`)).status).toBe(404)
    expect((await as(a.owner, "DELETE", "/switch/v1/equipo/no-es-uuid")).status).toBe(404)
    expect((await as(userOfB.session, "GET", "/switch/v1/links")).status).toBe(200)
  })
})

/** What an answer shows whatever the e-mail: status, the body's fields, its caching. */
const shape = (reply: { status: number; body: any; headers: Headers }) => ({
  status: reply.status,
  fields: Object.keys(reply.body ?? {}).sort(),
  error: reply.body?.error,
  estado: reply.body?.estado,
  cache: reply.headers.get("cache-control")
})

/** The mails `to` got after the first `before`. */
const mailsAfter = async (to: string, before: number, count = 1) => {
  const until = Date.now() + 5_000
  let mails = smtp.mails.filter((mail) => mail.to.includes(to))
  while (mails.length < before + count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    mails = smtp.mails.filter((mail) => mail.to.includes(to))
  }
  return mails.slice(before).map((mail) => unquote(mail.raw))
}

describe("no answer tells an outsider whether an e-mail has an account", () => {
  it("sign-up answers alike for a new e-mail and for another merchant's user's, with or without a password; the user is told by mail", async () => {
    const { codigo: theirs, email } = await ownerMerchant()
    const before = smtp.mails.filter((mail) => mail.to.includes(email)).length
    const signUp = (to: string, password?: string) => {
      const codigo = `r${randomUUID().slice(0, 8)}`
      return call(server.url, "POST", "/switch/v1/comercios/registrar", {
        body: { codigo, nombre: `Otro ${codigo}`, identificacion: "J-07013380-5", email: to, password }
      })
    }
    const answers = []
    for (const password of [undefined, "otra-clave-larga-2"])
      for (const to of [`nuevo-${randomUUID().slice(0, 8)}@example.com`, email, email.toUpperCase()])
        answers.push({ to, password, shape: shape(await signUp(to, password)) })
    for (const answer of answers) expect(answer.shape, JSON.stringify(answer)).toEqual(answers[0]?.shape)
    expect(answers[0]?.shape.status).toBe(201)

    // The e-mail's user got one mail per sign-up with its address, with no link; its account is unchanged.
    const mails = await mailsAfter(email, before, 4)
    expect(mails).toHaveLength(4)
    for (const text of mails) {
      expect(text).toContain("Alguien registr")
      expect(text).toContain("ya tiene un usuario del panel de Switch")
      expect(text).not.toMatch(/contrasena#token=/)
    }
    expect((await signIn(email, "otra-clave-larga-2")).status).toBe(401)
    const own = await session(email)
    expect((await as(own, "GET", "/switch/v1/sesion")).body.comercio.codigo).toBe(theirs)
  })

  it("an invitation answers alike for a new e-mail and for another merchant's user's; it is listed, changed and removed as any pending one, and the user is told by mail", async () => {
    const { owner } = await ownerMerchant()
    const { email: taken, codigo: theirs } = await ownerMerchant()
    const fresh = `nuevo-${randomUUID().slice(0, 8)}@equipo.example`
    const before = smtp.mails.filter((mail) => mail.to.includes(taken)).length
    const invited = await Promise.all(
      [fresh, taken].map((email) => as(owner, "POST", "/switch/v1/equipo", { email, rol: "cajero" }))
    )
    expect(shape(invited[1] as never)).toEqual(shape(invited[0] as never))
    expect(invited.map((reply) => reply.body)).toEqual([
      expect.objectContaining({ email: fresh, rol: "cajero", estado: "invitado" }),
      expect.objectContaining({ email: taken, rol: "cajero", estado: "invitado" })
    ])
    const [freshId, takenId] = invited.map((reply) => reply.body.id as string)

    const listed = await as(owner, "GET", "/switch/v1/equipo")
    const rows = listed.body.filter((u: { email: string }) => u.email === fresh || u.email === taken)
    expect(rows.map((u: { estado: string; rol: string }) => [u.estado, u.rol])).toEqual([
      ["invitado", "cajero"],
      ["invitado", "cajero"]
    ])
    expect(Object.keys(rows[1]).sort()).toEqual(Object.keys(rows[0]).sort())

    // Again, in any case: the same 409 for both, as for anyone already in the team.
    const again = await Promise.all(
      [fresh, taken.toUpperCase()].map((email) =>
        as(owner, "POST", "/switch/v1/equipo", { email, rol: "lectura" })
      )
    )
    expect(again.map(shape)).toEqual([shape(again[0] as never), shape(again[0] as never)])
    expect(again[0]?.body.error).toBe("usuario_duplicado")

    // Its user got a mail without a link, and still signs in to its own merchant.
    const mails = await mailsAfter(taken, before)
    expect(mails).toHaveLength(1)
    expect(mails[0]).toContain("ya tiene un usuario del panel de Switch")
    expect(mails[0]).not.toMatch(/contrasena#token=/)
    const own = await session(taken)
    expect((await as(own, "GET", "/switch/v1/sesion")).body.comercio.codigo).toBe(theirs)

    for (const id of [freshId, takenId]) {
      expect(await as(owner, "PATCH", `/switch/v1/equipo/${id}`, { rol: "lectura" })).toMatchObject({
        status: 200,
        body: { id, rol: "lectura", estado: "invitado" }
      })
      expect(await as(owner, "DELETE", `/switch/v1/equipo/${id}`)).toMatchObject({
        status: 200,
        body: { id, eliminado: true, sesiones_cerradas: 0 }
      })
    }
    const after = await as(owner, "GET", "/switch/v1/equipo")
    expect(after.body.map((u: { email: string }) => u.email)).not.toContain(taken)
    // Another merchant's owner cannot touch this merchant's pending invitation.
    const other = await as(owner, "POST", "/switch/v1/equipo", { email: taken, rol: "cajero" })
    expect(other.status).toBe(201)
    expect((await as(own, "DELETE", `/switch/v1/equipo/${other.body.id}`)).status).toBe(404)
  })
})

describe("without SMTP in production", () => {
  it("invitations and forgotten-password answer 503 correo_no_configurado, and sign-up still works", async () => {
    const production = await startServer({ settings: { environment: "production" } })
    try {
      const { codigo } = await registerMerchant(production.url)
      const reply = await call(production.url, "POST", "/switch/v1/contrasena/olvido", {
        body: { email: `${codigo}@example.com` }
      })
      expect(reply).toMatchObject({ status: 503, body: { error: "correo_no_configurado" } })
    } finally {
      await production.close()
    }
  })
})
