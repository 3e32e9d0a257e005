/**
 * Rolling a key (`POST /llaves/{id}/rotar`): the new key is shown once and works at once; the
 * old one keeps working for the chosen overlap and then answers `401` (the end is moved close in
 * the database, so the test waits seconds, not hours); the overlap is 0 to 168 hours, else
 * `400 validation` with `fieldErrors`; the mode, tenant and state rules of revoking hold.
 */
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"

let server: TestServer
let db: Pg.Client

beforeAll(async () => {
  server = await startServer()
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
})
afterAll(async () => {
  await db.end()
  await server.close()
})

const keyId = async (key: string) =>
  (await call(server.url, "GET", "/switch/v1/llaves", { key })).body[0].id as string
const works = async (key: string) => (await call(server.url, "GET", "/switch/v1/links", { key })).status

describe("POST /switch/v1/llaves/{id}/rotar", () => {
  it("makes a new key shown once; the old one works until its overlap ends, then answers 401", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const id = await keyId(key)
    expect(await works(key)).toBe(200)
    const before = Date.now()
    const rolled = await call(server.url, "POST", `/switch/v1/llaves/${id}/rotar`, {
      key,
      body: { solapamiento_horas: 24 }
    })
    expect(rolled.status).toBe(201)
    expect(rolled.headers.get("cache-control")).toContain("no-store")
    expect(Object.keys(rolled.body).sort()).toEqual(["anterior", "api_key", "id", "label", "mode"])
    expect(rolled.body).toMatchObject({ label: "inicial", mode: "test", anterior: { id } })
    expect(rolled.body.api_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/)
    const ends = Date.parse(rolled.body.anterior.expira_at)
    expect(ends - before).toBeGreaterThan(24 * 3600_000 - 60_000)
    expect(ends - before).toBeLessThan(24 * 3600_000 + 60_000)
    const fresh = `${codigo}:${rolled.body.api_key}`
    expect(await works(fresh)).toBe(200)
    expect(await works(key)).toBe(200)

    // The list shows both, the old one with its end; the new secret is never listed.
    const list = await call(server.url, "GET", "/switch/v1/llaves", { key: fresh })
    expect(JSON.stringify(list.body)).not.toContain(rolled.body.api_key)
    const old = list.body.find((k: { id: string }) => k.id === id)
    expect(old).toMatchObject({ revoked_at: null, expira_at: rolled.body.anterior.expira_at })
    expect(list.body.find((k: { id: string }) => k.id === rolled.body.id)).toMatchObject({ expira_at: null })

    // The overlap ends two seconds from now (and the processes' key caches are told, as a roll
    // tells them): the old key answers until then, and 401 after.
    await db.query(
      "update llaves set expira_at = now() + interval '2 seconds' where id = $1 returning pg_notify('switch_llaves', hash)",
      [id]
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await works(key)).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    const after = await call(server.url, "GET", "/switch/v1/links", { key })
    expect(after.status).toBe(401)
    expect(after.body.error).toBe("unauthorized")
    expect(await works(fresh)).toBe(200)
  })

  it("an overlap of 0 ends the old key at once", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const rolled = await call(server.url, "POST", `/switch/v1/llaves/${await keyId(key)}/rotar`, {
      key,
      body: { solapamiento_horas: 0 }
    })
    expect(rolled.status).toBe(201)
    expect(await works(key)).toBe(401)
    expect(await works(`${codigo}:${rolled.body.api_key}`)).toBe(200)
  })

  it("the overlap is an integer from 0 to 168 hours: anything else is 400 validation and rolls nothing", async () => {
    const { key } = await registerMerchant(server.url)
    const id = await keyId(key)
    const bodies: Array<unknown> = [
      { solapamiento_horas: -1 },
      { solapamiento_horas: 169 },
      { solapamiento_horas: 1.5 },
      { solapamiento_horas: "24" },
      {},
      { solapamiento_horas: 24, extra: true }
    ]
    for (const body of bodies) {
      const reply = await call(server.url, "POST", `/switch/v1/llaves/${id}/rotar`, { key, body })
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.error).toBe("validation")
      expect(typeof reply.body.detail.fieldErrors).toBe("object")
    }
    const range = await call(server.url, "POST", `/switch/v1/llaves/${id}/rotar`, {
      key,
      body: { solapamiento_horas: 169 }
    })
    expect(range.body.detail.fieldErrors.solapamiento_horas).toEqual(["debe estar entre 0 y 168 (7 días)"])
    const list = await call(server.url, "GET", "/switch/v1/llaves", { key })
    expect(list.body).toHaveLength(1)
    expect(list.body[0].expira_at).toBeNull()
  })

  it("a rolled or revoked key is 409 llave_no_rotable; a live key needs a live key; another merchant's key is 404", async () => {
    const { codigo, key } = await registerMerchant(server.url)
    const id = await keyId(key)
    const first = await call(server.url, "POST", `/switch/v1/llaves/${id}/rotar`, {
      key,
      body: { solapamiento_horas: 1 }
    })
    expect(first.status).toBe(201)
    const again = await call(server.url, "POST", `/switch/v1/llaves/${id}/rotar`, {
      key,
      body: { solapamiento_horas: 1 }
    })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("llave_no_rotable")
    const fresh = `${codigo}:${first.body.api_key}`
    await call(server.url, "POST", `/switch/v1/llaves/${id}/revocar`, { key: fresh })
    expect(await works(key)).toBe(401)

    const live = await approveMerchant(server, codigo)
    const liveId = await keyId(live)
    const refused = await call(server.url, "POST", `/switch/v1/llaves/${liveId}/rotar`, {
      key: fresh,
      body: { solapamiento_horas: 1 }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("requiere_llave_live")
    const liveRolled = await call(server.url, "POST", `/switch/v1/llaves/${liveId}/rotar`, {
      key: live,
      body: { solapamiento_horas: 168 }
    })
    expect(liveRolled.status).toBe(201)
    expect(liveRolled.body.api_key).toMatch(/^sk_live_/)

    const stranger = await registerMerchant(server.url)
    for (const other of [await keyId(stranger.key), "00000000-0000-0000-0000-000000000000", "no-es-uuid"]) {
      const reply = await call(server.url, "POST", `/switch/v1/llaves/${other}/rotar`, {
        key: fresh,
        body: { solapamiento_horas: 1 }
      })
      expect(reply.status, other).toBe(404)
    }
    expect(await works(stranger.key)).toBe(200)
  })
})
