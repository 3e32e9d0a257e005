import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  call,
  freshAddress,
  OWN_ACCOUNT,
  registerMerchant,
  startServer,
  type TestServer
} from "../../test/harness.js"
import * as Guesses from "../platform/Guesses.js"
import { totpCode, totpStep } from "../platform/Totp.js"

let server: TestServer

beforeAll(async () => {
  // 127.0.0.1 is a trusted proxy: a test stands for another client with `x-forwarded-for`.
  server = await startServer({ settings: { proxiesConfiables: ["127.0.0.1"] } })
})
afterAll(() => server.close())

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de operador"

const db = async <T = any>(text: string, values: Array<unknown> = []): Promise<Array<T>> => {
  const client = new Pg.Client({ connectionString: server.databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Array<T>
  } finally {
    await client.end()
  }
}

const crear = async (rol: string) => {
  const email = `op-${randomUUID().slice(0, 8)}@switch.test`
  const reply = await call(server.url, "POST", "/admin/v1/operadores", {
    headers: TOKEN,
    body: { email, password: PASSWORD, rol }
  })
  expect(reply.status).toBe(201)
  return { email, secret: reply.body.totp_secret as string, id: reply.body.id as string }
}

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signIn = async (
  op: { email: string; secret: string },
  codeStep = totpStep(Date.now())
): Promise<Session> => {
  const reply = await call(server.url, "POST", "/admin/v1/operador/sesion", {
    body: { email: op.email, password: PASSWORD, codigo: totpCode(op.secret, codeStep) }
  })
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  const setCookie = reply.headers.get("set-cookie") ?? ""
  return { cookie: setCookie.split(";")[0] ?? "", csrf: reply.body.csrf_token }
}

const as = (s: Session, method: string, path: string, body?: unknown, csrf = true) =>
  call(server.url, method, path, {
    body,
    headers: { cookie: s.cookie, ...(csrf ? { "x-csrf-token": s.csrf } : {}) }
  })

describe("operators", () => {
  it("are created only with the admin token, their TOTP secret shown once; a known e-mail is 409", async () => {
    const body = { email: "nuevo@switch.test", password: PASSWORD, rol: "soporte" }
    expect((await call(server.url, "POST", "/admin/v1/operadores", { body })).status).toBe(401)
    const created = await call(server.url, "POST", "/admin/v1/operadores", { headers: TOKEN, body })
    expect(created.status).toBe(201)
    expect(created.headers.get("cache-control")).toBe("no-store")
    expect(created.body).toMatchObject({ email: "nuevo@switch.test", rol: "soporte", activo: true })
    expect(created.body.totp_secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(created.body.totp_uri).toContain(`secret=${created.body.totp_secret}`)
    const again = await call(server.url, "POST", "/admin/v1/operadores", {
      headers: TOKEN,
      body: { ...body, email: "NUEVO@switch.test" }
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("operador_existe")
    const bad = await call(server.url, "POST", "/admin/v1/operadores", {
      headers: TOKEN,
      body: { ...body, rol: "jefe" }
    })
    expect(bad.status).toBe(400)
  })

  it("sign in with password AND a TOTP code: none, a wrong one or a replayed one is 401", async () => {
    const op = await crear("soporte")
    const attempt = (codigo?: string, password = PASSWORD) =>
      call(server.url, "POST", "/admin/v1/operador/sesion", {
        body: { email: op.email, password, ...(codigo === undefined ? {} : { codigo }) }
      })
    expect((await attempt()).status).toBe(401)
    const now = totpStep(Date.now())
    expect((await attempt(totpCode(op.secret, now + 5))).status).toBe(401)
    expect((await attempt(totpCode(op.secret, now), "otra clave cualquiera")).status).toBe(401)
    const ok = await attempt(totpCode(op.secret, now))
    expect(ok.status).toBe(200)
    expect(ok.body.operador).toMatchObject({ email: op.email, rol: "soporte" })
    const cookie = ok.headers.get("set-cookie") ?? ""
    expect(cookie).toMatch(/^switch_operador=/)
    expect(cookie).toContain("HttpOnly")
    expect(cookie).toContain("SameSite=Strict")
    expect(cookie).toContain("Path=/admin/v1/operador")
    // The same code again is a replay.
    expect((await attempt(totpCode(op.secret, now))).status).toBe(401)
  })

  it("locks an e-mail after 5 failed sign-ins in 15 minutes, even with the right password and code", async () => {
    const op = await crear("soporte")
    for (let i = 0; i < 5; i++) {
      const reply = await call(server.url, "POST", "/admin/v1/operador/sesion", {
        body: { email: op.email, password: PASSWORD, codigo: "000000" }
      })
      expect(reply.status).toBe(401)
    }
    const locked = await call(server.url, "POST", "/admin/v1/operador/sesion", {
      body: { email: op.email, password: PASSWORD, codigo: totpCode(op.secret, totpStep(Date.now())) }
    })
    expect(locked.status).toBe(429)
    expect(locked.body.error).toBe("demasiadas_solicitudes")
  })

  it("100 codes at once after the right password get at most 5 checks: the right code after them is refused", async () => {
    const op = await crear("soporte")
    const attacker = { "x-forwarded-for": freshAddress() }
    const step = totpStep(Date.now())
    const valid = new Set([step - 1, step, step + 1].map((s) => totpCode(op.secret, s)))
    const codes = Array.from({ length: 110 }, (_, i) => String(i * 7919).padStart(6, "0"))
      .filter((code) => !valid.has(code))
      .slice(0, 100)
    const RIGHT = 84
    codes[RIGHT] = totpCode(op.secret, step)
    const replies = await Promise.all(
      codes.map((codigo) =>
        call(server.url, "POST", "/admin/v1/operador/sesion", {
          headers: attacker,
          body: { email: op.email, password: PASSWORD, codigo }
        })
      )
    )
    const checked = replies.filter((reply) => reply.status !== 429)
    expect(checked.length).toBe(Guesses.OPERADOR.perAccountAddress)
    for (const reply of checked) expect(reply.status).toBe(401)
    expect(replies[RIGHT]?.status).toBe(429)
    expect(replies[RIGHT]?.headers.get("retry-after")).toBe("900")
    // The operator, at another address, is not locked out by that address's guesses.
    const own = await call(server.url, "POST", "/admin/v1/operador/sesion", {
      headers: { "x-forwarded-for": freshAddress() },
      body: { email: op.email, password: PASSWORD, codigo: totpCode(op.secret, totpStep(Date.now())) }
    })
    expect(own.status).toBe(200)
  })

  it("an address's failures lock that address only, not the operator at another one; failures from many addresses lock the e-mail", async () => {
    const op = await crear("soporte")
    const step = totpStep(Date.now())
    const attempt = (from: string, email: string, codigo: string) =>
      call(server.url, "POST", "/admin/v1/operador/sesion", {
        headers: { "x-forwarded-for": from },
        body: { email, password: PASSWORD, codigo }
      })
    const attacker = freshAddress()
    for (let i = 0; i < Guesses.OPERADOR.perAccountAddress; i++)
      expect((await attempt(attacker, op.email, "000000")).status).toBe(401)
    expect((await attempt(attacker, op.email, totpCode(op.secret, step))).status).toBe(429)
    expect((await attempt(freshAddress(), op.email, totpCode(op.secret, step))).status).toBe(200)
    // Unknown e-mails from one address: past its limit that address is locked, and only it.
    const guesser = freshAddress()
    const unknown = await Promise.all(
      Array.from({ length: Guesses.OPERADOR.perAddress ?? 0 }, () =>
        attempt(guesser, `nadie-${randomUUID().slice(0, 8)}@switch.test`, "000000")
      )
    )
    for (const reply of unknown) expect(reply.status).toBe(401)
    expect((await attempt(guesser, op.email, totpCode(op.secret, step + 1))).status).toBe(429)
    expect((await attempt(freshAddress(), op.email, totpCode(op.secret, step + 1))).status).toBe(200)
    // Another operator's e-mail guessed from many addresses is locked at every address.
    const other = await crear("soporte")
    const { perAccount, perAccountAddress } = Guesses.OPERADOR
    const addresses = Array.from({ length: Math.ceil(perAccount / perAccountAddress) }, freshAddress)
    await Promise.all(
      addresses.map(async (from) => {
        for (let i = 0; i < perAccountAddress; i++)
          expect((await attempt(from, other.email, "000000")).status).toBe(401)
      })
    )
    const locked = await attempt(freshAddress(), other.email, totpCode(other.secret, totpStep(Date.now())))
    expect(locked.status).toBe(429)
    expect(locked.body.error).toBe("demasiadas_solicitudes")
  })

  it("a session needs its cookie, its CSRF header on unsafe methods, and ends when idle, expired or closed", async () => {
    const op = await crear("soporte")
    const s = await signIn(op)
    expect((await call(server.url, "GET", "/admin/v1/operador/sesion")).status).toBe(401)
    // A merchant's session cookie is not an operator's.
    expect(
      (
        await call(server.url, "GET", "/admin/v1/operador/sesion", {
          headers: { cookie: `switch_sesion=${s.cookie.split("=")[1]}` }
        })
      ).status
    ).toBe(401)
    expect((await as(s, "GET", "/admin/v1/operador/sesion")).body.operador.email).toBe(op.email)
    const noCsrf = await as(s, "DELETE", "/admin/v1/operador/sesion", undefined, false)
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.body.error).toBe("csrf_invalido")
    await db(
      "update sesiones_operador set last_seen_at = now() - interval '16 minutes' where operador_id = $1",
      [op.id]
    )
    expect((await as(s, "GET", "/admin/v1/operador/sesion")).status).toBe(401)

    const s2 = await signIn(op, totpStep(Date.now()) + 1)
    await db(
      "update sesiones_operador set expires_at = now() - interval '1 second' where operador_id = $1 and ended_at is null",
      [op.id]
    )
    expect((await as(s2, "GET", "/admin/v1/operador/sesion")).status).toBe(401)
  })

  it("closing a session ends it", async () => {
    const op = await crear("tesoreria")
    const s = await signIn(op)
    const closed = await as(s, "DELETE", "/admin/v1/operador/sesion")
    expect(closed.status).toBe(204)
    expect((await as(s, "GET", "/admin/v1/operador/sesion")).status).toBe(401)
  })
})

describe("merchants from the console", () => {
  it("soporte reads the pending list but cannot approve; riesgo approves, reviews, suspends and reactivates, each audited", async () => {
    const { codigo } = await registerMerchant(server.url)
    const soporte = await signIn(await crear("soporte"))
    const riesgo = await signIn(await crear("riesgo"))
    const tesoreria = await signIn(await crear("tesoreria"))

    const pending = await as(soporte, "GET", "/admin/v1/operador/comercios?estado=pendiente")
    expect(pending.status).toBe(200)
    expect(pending.body.data.map((c: { codigo: string }) => c.codigo)).toContain(codigo)
    const resumen = await as(soporte, "GET", "/admin/v1/operador/resumen")
    expect(resumen.body.comercios_pendientes).toBeGreaterThanOrEqual(1)

    const path = `/admin/v1/operador/comercios/${codigo}`
    for (const who of [soporte, tesoreria]) {
      const refused = await as(who, "POST", `${path}/aprobar`, { cuenta_liquidacion: OWN_ACCOUNT })
      expect(refused.status).toBe(403)
      expect(refused.body.error).toBe("rol_insuficiente")
    }
    expect((await as(soporte, "GET", path)).body.estado).toBe("pendiente")

    const approved = await as(riesgo, "POST", `${path}/aprobar`, {
      cuenta_liquidacion: OWN_ACCOUNT,
      nota: "KYC revisado"
    })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    // No secret for operators: the answer carries no key and none was minted (the owner makes them).
    expect(approved.body).toEqual({ codigo, estado: "activo", kyc_tier: 1 })
    expect(JSON.stringify(approved.body)).not.toMatch(/sk_live_|api_key/)
    expect(
      await db(
        "select 1 from llaves l join comercios c on c.id = l.comercio_id where c.codigo = $1 and l.mode = 'live'",
        [codigo]
      )
    ).toEqual([])
    const asking = await as(riesgo, "POST", `${path}/aprobar`, { emitir_llave: true })
    expect(asking.status).toBe(400)
    expect((await as(riesgo, "POST", `${path}/revisar`)).status).toBe(200)
    expect((await as(riesgo, "POST", `${path}/suspender`, { nota: "fraude" })).status).toBe(200)
    expect((await as(soporte, "GET", path)).body.estado).toBe("suspendido")
    expect((await as(riesgo, "POST", `${path}/reactivar`)).status).toBe(200)
    expect((await as(soporte, "GET", path)).body.estado).toBe("activo")

    const log = await as(
      soporte,
      "GET",
      `/admin/v1/operador/auditoria?objeto_tipo=comercio&objeto_id=${codigo}`
    )
    expect(log.status).toBe(200)
    expect(log.body.data.map((r: { accion: string }) => r.accion)).toEqual([
      "comercio.reactivar",
      "comercio.suspender",
      "comercio.revisar",
      "comercio.aprobar"
    ])
    const aprobar = log.body.data[3]
    expect(aprobar.antes.estado).toBe("pendiente")
    expect(aprobar.despues.estado).toBe("activo")
    expect(aprobar.nota).toBe("KYC revisado")
    expect(aprobar.actor).toMatch(/@switch\.test$/)
    expect(log.body.data[1].nota).toBe("fraude")

    // Approving again changes nothing and mints no key.
    const again = await as(riesgo, "POST", `${path}/aprobar`, {})
    expect(again.status).toBe(200)
    expect(again.body.ya_aprobado).toBe(true)
  })

  it("an unknown merchant is 404 and a malformed body 400", async () => {
    const riesgo = await signIn(await crear("riesgo"))
    expect((await as(riesgo, "POST", "/admin/v1/operador/comercios/nadie-aqui/revisar")).status).toBe(404)
    expect(
      (await as(riesgo, "POST", "/admin/v1/operador/comercios/nadie-aqui/suspender", { otra: 1 })).status
    ).toBe(400)
  })
})

describe("refused attempts", () => {
  it("an operator's request refused for its role or for CSRF leaves an audit row with its result", async () => {
    const op = await crear("soporte")
    const s = await signIn(op)
    const { codigo } = await registerMerchant(server.url)
    const attempts: ReadonlyArray<readonly [string, string, boolean, string]> = [
      ["POST", `/admin/v1/operador/comercios/${codigo}/aprobar`, true, "rol_insuficiente"],
      ["PATCH", `/admin/v1/operador/comercios/${codigo}`, true, "rol_insuficiente"],
      ["POST", "/admin/v1/operador/tasa-bcv", true, "rol_insuficiente"],
      [
        "POST",
        `/admin/v1/operador/revision/liquidaciones/${randomUUID()}/marcar-pagada`,
        true,
        "rol_insuficiente"
      ],
      ["POST", `/admin/v1/operador/operadores/${op.id}/restablecer-totp`, true, "rol_insuficiente"],
      ["POST", "/admin/v1/operador/incidentes", false, "csrf_invalido"],
      ["DELETE", "/admin/v1/operador/sesion", false, "csrf_invalido"]
    ]
    for (const [method, path, csrf, error] of attempts) {
      const reply = await as(s, method, path, method === "DELETE" ? undefined : {}, csrf)
      expect(reply.status, `${method} ${path}`).toBe(403)
      expect(reply.body.error).toBe(error)
    }
    const rows = await db<{ actor: string; objeto_tipo: string; objeto_id: string; despues: any }>(
      "select actor, objeto_tipo, objeto_id, despues from auditoria where operador_id = $1 and accion = 'acceso.rechazado' order by id",
      [op.id]
    )
    expect(rows.map((r) => [r.objeto_id, r.despues.resultado, r.despues.error])).toEqual(
      attempts.map(([method, path, , error]) => [`${method} ${path}`, 403, error])
    )
    for (const row of rows) expect(row).toMatchObject({ actor: op.email, objeto_tipo: "ruta" })
    expect(rows[0]?.despues).toMatchObject({ rol: "soporte", roles_permitidos: ["riesgo"] })
    // The console's log shows them to every operator.
    const log = await as(s, "GET", "/admin/v1/operador/auditoria?objeto_tipo=ruta&limit=100")
    expect(log.body.data.filter((r: { actor: string }) => r.actor === op.email)).toHaveLength(attempts.length)
  })
})

describe("the audit log", () => {
  it("is append-only: Postgres refuses UPDATE, DELETE and TRUNCATE", async () => {
    await crear("soporte")
    const [row] = await db<{ id: number }>("select id from auditoria order by id desc limit 1")
    expect(row).toBeDefined()
    await expect(db("update auditoria set nota = 'x' where id = $1", [row?.id])).rejects.toThrow(
      /solo de agregar/
    )
    await expect(db("delete from auditoria where id = $1", [row?.id])).rejects.toThrow(/solo de agregar/)
    await expect(db("truncate auditoria")).rejects.toThrow(/solo de agregar/)
    expect((await db("select id from auditoria where id = $1", [row?.id])).length).toBe(1)
  })

  it("pages with starting_after and exports CSV", async () => {
    const op = await crear("soporte")
    await crear("soporte")
    await crear("soporte")
    const s = await signIn(op)
    const first = await as(s, "GET", "/admin/v1/operador/auditoria?limit=2")
    expect(first.body.data.length).toBe(2)
    expect(first.body.has_more).toBe(true)
    const next = await as(
      s,
      "GET",
      `/admin/v1/operador/auditoria?limit=2&starting_after=${first.body.data[1].id}`
    )
    expect(next.body.data[0].id).toBeLessThan(first.body.data[1].id)
    expect((await as(s, "GET", "/admin/v1/operador/auditoria?limit=0")).status).toBe(400)
    const csv = await fetch(`${server.url}/admin/v1/operador/auditoria.csv`, {
      headers: { cookie: s.cookie }
    })
    expect(csv.status).toBe(200)
    expect(csv.headers.get("content-type")).toContain("text/csv")
    const text = await csv.text()
    expect(text.split("\r\n")[0]).toBe(
      "id,created_at,actor,operador_id,accion,objeto_tipo,objeto_id,antes,despues,nota"
    )
    expect(text).toContain('"operador.crear"')
  })
})

describe("the admin reference", () => {
  it("documents every admin route at /admin/v1/openapi.json with a Spanish summary, none in the public document", async () => {
    const doc = await call(server.url, "GET", "/admin/v1/openapi.json")
    expect(doc.status).toBe(200)
    const operations = Object.entries(
      doc.body.paths as Record<string, Record<string, { summary?: string }>>
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, summary: op.summary }))
    )
    expect(operations.length).toBeGreaterThanOrEqual(26)
    for (const op of operations) expect(op.summary, `${op.method} ${op.path}`).toMatch(/[a-záéíóúñ]/)
    // Every documented route exists: without credentials each answers 400 or 401, never the 404 of an unknown route.
    for (const op of operations) {
      const path = op.path.replace("{codigo}", "nadie-aqui").replace("{id}", randomUUID())
      const reply = await call(server.url, op.method.toUpperCase(), path)
      expect([400, 401], `${op.method} ${op.path}`).toContain(reply.status)
    }
    // The token's approval says a live key comes only on the explicit ask.
    const aprobar = doc.body.paths["/admin/v1/comercios/{codigo}/aprobar"].post
    expect(aprobar.requestBody.content["application/json"].schema.properties.emitir_llave.type).toBe(
      "boolean"
    )
    expect(aprobar.description).toContain("emitir_llave")
    // Four eyes on marking paid and closing, on every source, with their confirmation.
    const manual = Object.keys(doc.body.paths).filter((p) =>
      /\/revision\/.+\/(marcar-pagada|marcar-acreditado|cerrar)$/.test(p)
    )
    expect(manual).toHaveLength(12)
    for (const path of manual) {
      expect(doc.body.paths[path].post.responses["202"], path).toBeDefined()
      expect(doc.body.paths[`${path}/confirmar`]?.post, `${path}/confirmar`).toBeDefined()
    }
    const publicDoc = await call(server.url, "GET", "/openapi.json")
    expect(Object.keys(publicDoc.body.paths).some((p) => p.startsWith("/admin"))).toBe(false)
    // Adding an approved account answers as the portal's route does: 201 added, 200 already there.
    for (const [document, path] of [
      [doc.body, "/admin/v1/comercios/{codigo}/cuentas-aprobadas"],
      [publicDoc.body, "/switch/v1/cuentas-aprobadas"]
    ] as const) {
      expect(Object.keys(document.paths[path].post.responses), path).toEqual(
        expect.arrayContaining(["200", "201"])
      )
      expect(document.paths[path].post.description, path).toContain("`200` con la lista igual")
    }
  })
})
