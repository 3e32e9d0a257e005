/**
 * Split accounts approved in the portal (issue 33) against the real server: the owner adds one
 * and a split may then name it; a cajero reads but may not add; a key is 401; the 21st is 409
 * limite_cuentas; a bad check digit is 400 and nothing changes; an account known under another
 * holder is 409 cuenta_otro_titular; merchant A never sees B's; every change is in the audit log.
 */
import { randomUUID } from "node:crypto"
import { Venezuela } from "@switch/core"
import { Option } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { signInOwner } from "../../test/ownerSession.js"
import { hashPassword } from "../platform/Passwords.js"

let server: TestServer
let db: Pg.Client
const PASSWORD = "una-clave-larga-1"
const PATH = "/switch/v1/cuentas-aprobadas"

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db?.end()
  await server?.close()
})

const signIn = (email: string) => signInOwner(server.url, email, PASSWORD)

const merchant = async () => {
  const codigo = `c${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  return { codigo, key: `${codigo}:${made.body.api_key}`, headers: await signIn(email) }
}

/** A valid account number of Banco de Venezuela: `n` picks the account. */
const numero = (n: number) => {
  const account = String(n).padStart(10, "0")
  return `01020501${Option.getOrThrow(Venezuela.accountCheckDigits("0102", "0501", account))}${account}`
}
const cuenta = (n: number, identificacion = "V-12345678") => ({
  tipo: "cuenta",
  valor: numero(n),
  banco: "0102",
  identificacion,
  nombre: "Pedro Pérez"
})
const stored = async (codigo: string) =>
  (await db.query("select cuentas_aprobadas from comercios where codigo = $1", [codigo])).rows[0]
    .cuentas_aprobadas as Array<unknown>

describe("split accounts approved in the portal", () => {
  it("the owner adds one, written to the audit log; again is not repeated; removed by its id", async () => {
    const m = await merchant()
    expect((await call(server.url, "GET", PATH, { headers: m.headers })).body).toEqual({ data: [], max: 20 })
    const added = await call(server.url, "POST", PATH, {
      headers: m.headers,
      body: cuenta(1, "v-12.345.678")
    })
    expect(added.status).toBe(201)
    const id = added.body.data[0]?.id as string
    expect(added.body.data).toEqual([
      {
        id,
        tipo: "cuenta",
        valor: numero(1),
        banco: "0102",
        identificacion: "V-12345678",
        tipo_doc: "V",
        nombre: "Pedro Pérez"
      }
    ])
    // Already there: not added twice, 200 with the list as it is (the admin API's rule too).
    const again = await call(server.url, "POST", PATH, { headers: m.headers, body: cuenta(1) })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(added.body)
    expect(await stored(m.codigo)).toHaveLength(1)
    const log = await call(server.url, "GET", "/switch/v1/actividad", { headers: m.headers })
    expect(log.body.some((e: any) => e.accion === "POST" && e.objeto === PATH && e.resultado === 201)).toBe(
      true
    )
    const removed = await call(server.url, "DELETE", `${PATH}/${id}`, { headers: m.headers })
    expect(removed.status).toBe(200)
    expect(removed.body.data).toEqual([])
    expect((await call(server.url, "DELETE", `${PATH}/${id}`, { headers: m.headers })).status).toBe(404)
    expect(await stored(m.codigo)).toEqual([])
  })

  it("ids are opaque: no digit of a phone or account number is in them, nor in the request log, and the number is no id", async () => {
    const m = await merchant()
    const phones = ["04141234567", "04241234567", "04160000001", "04260999999", "04121112233"]
    const accounts = [numero(11), numero(12)]
    for (const valor of phones)
      expect(
        (
          await call(server.url, "POST", PATH, {
            headers: m.headers,
            body: { tipo: "telefono", valor, banco: "0102", identificacion: "V-12345678", nombre: "Ana" }
          })
        ).status
      ).toBe(201)
    for (const valor of accounts)
      expect(
        (await call(server.url, "POST", PATH, { headers: m.headers, body: { ...cuenta(0), valor } })).status
      ).toBe(201)
    const listed = (await call(server.url, "GET", PATH, { headers: m.headers })).body.data as Array<{
      id: string
      valor: string
      tipo: string
      banco: string
    }>
    expect(listed).toHaveLength(phones.length + accounts.length)
    expect(new Set(listed.map((c) => c.id)).size).toBe(listed.length)
    for (const c of listed) {
      expect(c.id).toMatch(/^ca_[\w-]{22}$/)
      // No run of 4 digits of the number (nor the bank code) shows in the id.
      for (let i = 0; i + 4 <= c.valor.length; i++) expect(c.id).not.toContain(c.valor.slice(i, i + 4))
    }
    // The old spelling, built from the number, names nothing, even while the account is there.
    const [first] = listed
    const old = `${PATH}/${first?.tipo === "cuenta" ? "c" : "t"}-${first?.banco}-${first?.valor}`
    expect((await call(server.url, "DELETE", old, { headers: m.headers })).status).toBe(404)
    // Stable: the same ids on every read.
    expect((await call(server.url, "GET", PATH, { headers: m.headers })).body.data).toEqual(listed)
    for (const c of listed)
      expect((await call(server.url, "DELETE", `${PATH}/${c.id}`, { headers: m.headers })).status).toBe(200)
    // The logs kept the paths of those removals (the users' audit log, the request log): no number.
    const logged = JSON.stringify([
      (await db.query("select * from actividad where objeto <> $1", [old])).rows,
      (await db.query("select * from solicitudes_api where path <> $1", [old])).rows
    ])
    expect(logged).toContain(`${PATH}/${listed[0]?.id}`)
    for (const valor of [...phones, ...accounts]) expect(logged).not.toContain(valor)
  })

  it("a cajero reads but may not add or remove; a key is 401; without the CSRF token 403", async () => {
    const m = await merchant()
    await call(server.url, "POST", PATH, { headers: m.headers, body: cuenta(2) })
    const email = `cajero-${randomUUID().slice(0, 8)}@equipo.example`
    await db.query(
      "insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, 'cajero' from comercios where codigo = $4",
      [randomUUID(), email, await hashPassword(PASSWORD), m.codigo]
    )
    const cajero = await signIn(email)
    expect((await call(server.url, "GET", PATH, { headers: cajero })).body.data).toHaveLength(1)
    const refused = await call(server.url, "POST", PATH, { headers: cajero, body: cuenta(3) })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("rol_no_permitido")
    const [listed] = (await call(server.url, "GET", PATH, { headers: cajero })).body.data
    expect((await call(server.url, "DELETE", `${PATH}/${listed.id}`, { headers: cajero })).status).toBe(403)
    expect((await call(server.url, "GET", PATH, { key: m.key })).status).toBe(401)
    expect((await call(server.url, "POST", PATH, { key: m.key, body: cuenta(3) })).status).toBe(401)
    expect(
      (await call(server.url, "POST", PATH, { headers: { cookie: m.headers.cookie }, body: cuenta(3) }))
        .status
    ).toBe(403)
    expect(await stored(m.codigo)).toHaveLength(1)
  })

  it("up to 20: the 21st is 409 limite_cuentas and the list stays at 20", async () => {
    const m = await merchant()
    for (let n = 100; n < 120; n++) {
      expect((await call(server.url, "POST", PATH, { headers: m.headers, body: cuenta(n) })).status).toBe(201)
    }
    const over = await call(server.url, "POST", PATH, { headers: m.headers, body: cuenta(120) })
    expect(over.status).toBe(409)
    expect(over.body.error).toBe("limite_cuentas")
    expect(await stored(m.codigo)).toHaveLength(20)
  })

  it("a bad check digit, bank or holder id is 400 and nothing changes", async () => {
    const m = await merchant()
    const good = numero(4)
    const badDigit = `${good.slice(0, 8)}${(Number(good[8]) + 1) % 10}${good.slice(9)}`
    for (const body of [
      { ...cuenta(4), valor: badDigit },
      { ...cuenta(4), banco: "0105" },
      { ...cuenta(4), identificacion: "X" },
      { ...cuenta(4), otro: 1 },
      { ...cuenta(4), valor: "123" }
    ]) {
      const r = await call(server.url, "POST", PATH, { headers: m.headers, body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error).toBe("validation")
    }
    expect(await stored(m.codigo)).toEqual([])
  })

  it("an account known in another holder's name is 409 cuenta_otro_titular", async () => {
    const a = await merchant()
    const b = await merchant()
    // B's settlement account, checked to be in B's name.
    await db.query("update comercios set cuenta_liquidacion = $1::jsonb where codigo = $2", [
      JSON.stringify({ ...cuenta(5, "J-07013380-5"), tipo_doc: "J" }),
      b.codigo
    ])
    const other = await call(server.url, "POST", PATH, { headers: a.headers, body: cuenta(5, "V-12345678") })
    expect(other.status).toBe(409)
    expect(other.body.error).toBe("cuenta_otro_titular")
    expect(other.body.detail).toContain("otro titular")
    expect(
      (await call(server.url, "POST", PATH, { headers: a.headers, body: cuenta(5, "J070133805") })).status
    ).toBe(201)
    // One the merchant already approved, given again with another holder id.
    await call(server.url, "POST", PATH, { headers: a.headers, body: cuenta(6, "V-12345678") })
    const changed = await call(server.url, "POST", PATH, {
      headers: a.headers,
      body: cuenta(6, "V-87654321")
    })
    expect(changed.body.error).toBe("cuenta_otro_titular")
    expect(await stored(a.codigo)).toHaveLength(2)
  })

  it("merchant A never sees nor removes B's accounts", async () => {
    const a = await merchant()
    const b = await merchant()
    const [theirs] = (await call(server.url, "POST", PATH, { headers: b.headers, body: cuenta(7) })).body.data
    expect((await call(server.url, "GET", PATH, { headers: a.headers })).body.data).toEqual([])
    expect((await call(server.url, "DELETE", `${PATH}/${theirs.id}`, { headers: a.headers })).status).toBe(
      404
    )
    // The same account approved by A has an id of its own, which names nothing of B's.
    const [mine] = (await call(server.url, "POST", PATH, { headers: a.headers, body: cuenta(7) })).body.data
    expect(mine.id).not.toBe(theirs.id)
    expect((await call(server.url, "DELETE", `${PATH}/${mine.id}`, { headers: a.headers })).status).toBe(200)
    expect(await stored(b.codigo)).toHaveLength(1)
  })

  it("a split names the account once approved in the portal", async () => {
    const m = await merchant()
    await db.query(
      "update comercios set split_habilitado = true, liquidacion_inmediata = true, estado = 'activo' where codigo = $1",
      [m.codigo]
    )
    const split = [{ cuenta: cuenta(8), porcentaje: 10 }]
    const before = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 100, concepto: "x", split }
    })
    expect(before.body.error).toBe("split_cuenta_no_preaprobada")
    await call(server.url, "POST", PATH, { headers: m.headers, body: cuenta(8) })
    const after = await call(server.url, "POST", "/switch/v1/links", {
      key: m.key,
      body: { monto: 100, concepto: "x", split }
    })
    expect(after.status, JSON.stringify(after.body)).toBe(201)
  })
})
