/**
 * What the portal's Desarrolladores screen does with a session in test mode, with no live key:
 * edit a webhook, test it, read its deliveries, send a notice again (a `webhook.test` one
 * included), and read the event log by type; a `cajero` reaches none of it.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startServer, type TestServer } from "../../test/harness.js"
import { type Receiver, startReceiver } from "../../test/webhooksReceiver.js"
import { hashPassword } from "../platform/Passwords.js"

let server: TestServer
let db: Pg.Client
let receiver: Receiver

beforeAll(async () => {
  server = await startServer({ settings: { webhookAllowPrivate: true, apiPorMinuto: 100_000 } })
  db = new Pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  receiver = await startReceiver()
})
afterAll(async () => {
  await receiver?.close()
  await db?.end()
  await server?.close()
})

const PASSWORD = "una-clave-larga-1"

interface Session {
  readonly cookie: string
  readonly csrf: string
}

const signIn = async (email: string): Promise<Session> => {
  const reply = await fetch(`${server.url}/switch/v1/sesion`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD })
  })
  expect(reply.status).toBe(200)
  const body = (await reply.json()) as { csrf_token: string }
  return { cookie: (reply.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "", csrf: body.csrf_token }
}

/** A merchant signed up with an owner's password: its code, its test key and the owner's session. */
const owner = async () => {
  const codigo = `w${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const reply = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reply.status).toBe(201)
  return { codigo, key: `${codigo}:${reply.body.api_key}`, session: await signIn(email) }
}

const addUser = async (codigo: string, rol: "cajero" | "lectura") => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@equipo.example`
  await db.query(
    `insert into usuarios (id, comercio_id, email, hash, rol)
     select $1, id, $2, $3, $4 from comercios where codigo = $5`,
    [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
  )
  return signIn(email)
}

const as = (s: Session, method: string, path: string, body?: unknown) =>
  call(server.url, method, path, { body, headers: { cookie: s.cookie, "x-csrf-token": s.csrf } })

const waitFor = async <T>(read: () => Promise<T | undefined>, what: string): Promise<T> => {
  const until = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`no llegó: ${what}`)
    await new Promise((done) => setTimeout(done, 100))
  }
}

describe("webhooks from the portal, in test mode without a live key", () => {
  it("a session edits url, eventos and estado; a test key may not", async () => {
    const { key, session } = await owner()
    const made = await as(session, "POST", "/switch/v1/webhooks", {
      url: `${receiver.url}?editar`,
      eventos: ["link.pagado"]
    })
    expect(made.status).toBe(201)
    const path = `/switch/v1/webhooks/${made.body.id}`
    expect((await call(server.url, "PATCH", path, { key, body: { estado: "inactivo" } })).status).toBe(403)
    const edited = await as(session, "PATCH", path, {
      url: `${receiver.url}?editado`,
      eventos: ["link.pagado", "link.acreditado"],
      estado: "inactivo"
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({
      url: `${receiver.url}?editado`,
      eventos: ["link.pagado", "link.acreditado"],
      estado: "inactivo"
    })
    expect((await as(session, "GET", path)).body.estado).toBe("inactivo")
  })

  it("probar delivers webhook.test, deliveries list it, and reenviar sends that test notice once more", async () => {
    const { session } = await owner()
    const url = `${receiver.url}?probar=${randomUUID()}`
    const made = await as(session, "POST", "/switch/v1/webhooks", { url, eventos: ["*"] })
    const probe = await as(session, "POST", `/switch/v1/webhooks/${made.body.id}/probar`)
    expect(probe.status).toBe(200)
    expect(probe.body).toMatchObject({
      evento: "webhook.test",
      estado: "entregado",
      intentos: 1,
      mode: "test"
    })
    const mine = () => receiver.received.filter((r) => r.body.includes(probe.body.evento_id))
    expect(mine()).toHaveLength(1)

    const listed = await as(session, "GET", `/switch/v1/webhooks/${made.body.id}/deliveries`)
    expect(listed.body.map((d: { id: string }) => d.id)).toEqual([probe.body.id])

    const again = await as(session, "POST", `/switch/v1/eventos/${probe.body.evento_id}/reenviar`)
    expect(again.status).toBe(200)
    expect(again.body).toEqual([
      expect.objectContaining({ id: probe.body.id, estado: "entregado", intentos: 2, error: null })
    ])
    expect(mine()).toHaveLength(2)
    expect(JSON.parse(mine()[1]!.body).id).toBe(probe.body.evento_id)
  })

  it("another merchant's test notice is not found, and a failed test is tried again", async () => {
    const a = await owner()
    const b = await owner()
    const made = await as(a.session, "POST", "/switch/v1/webhooks", {
      url: `${receiver.url}?ajeno`,
      eventos: ["*"]
    })
    receiver.respond = () => ({ status: 500 })
    const probe = await as(a.session, "POST", `/switch/v1/webhooks/${made.body.id}/probar`)
    receiver.respond = () => ({ status: 200 })
    expect(probe.body).toMatchObject({ estado: "fallido", codigo_http: 500 })
    const foreign = await as(b.session, "POST", `/switch/v1/eventos/${probe.body.evento_id}/reenviar`)
    expect(foreign.status).toBe(404)
    const again = await as(a.session, "POST", `/switch/v1/eventos/${probe.body.evento_id}/reenviar`)
    expect(again.body).toEqual([
      expect.objectContaining({ estado: "entregado", intentos: 2, codigo_http: 200 })
    ])
  })
})

describe("the event log", () => {
  it("lists by type; an unknown type is 400; the session sees its mode's notices", async () => {
    const { key, session } = await owner()
    const ids: Array<string> = []
    for (const concepto of ["Log 1", "Log 2"]) {
      const link = await call(server.url, "POST", "/switch/v1/links", { key, body: { monto: 12, concepto } })
      await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
        key,
        body: { resultado: "pagado" }
      })
      ids.push(link.body.id)
    }
    const all = await waitFor(async () => {
      const reply = await as(session, "GET", "/switch/v1/eventos?limit=200")
      const paid = reply.body.filter((e: { evento: string }) => e.evento === "link.pagado")
      return paid.length === 2 ? reply.body : undefined
    }, "dos link.pagado")
    const paid = await as(session, "GET", "/switch/v1/eventos?evento=link.pagado")
    expect(paid.status).toBe(200)
    expect(paid.body.map((e: { data: { link_id: string } }) => e.data.link_id)).toEqual([ids[1], ids[0]])
    expect(new Set(paid.body.map((e: { evento: string }) => e.evento))).toEqual(new Set(["link.pagado"]))
    const none = await as(session, "GET", "/switch/v1/eventos?evento=transaccion.rechazada")
    expect(none.body).toEqual([])
    const bad = await as(session, "GET", "/switch/v1/eventos?evento=link.inventado")
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: "validation", parametro: "evento" })
    const paged = await as(session, "GET", "/switch/v1/eventos?limit=1&offset=1")
    expect(paged.body).toEqual([all[1]])
  })

  it("a cajero reaches neither the log nor a re-send; lectura reads the log but may not re-send", async () => {
    const { codigo, key } = await owner()
    const link = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 5, concepto: "Rol" }
    })
    await call(server.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    const evento = await waitFor(async () => {
      const reply = await call(server.url, "GET", "/switch/v1/eventos?evento=link.pagado", { key })
      return reply.body[0]?.id as string | undefined
    }, "link.pagado")
    const cajero = await addUser(codigo, "cajero")
    for (const [method, path] of [
      ["GET", "/switch/v1/eventos"],
      ["POST", `/switch/v1/eventos/${evento}/reenviar`]
    ] as const) {
      const reply = await as(cajero, method, path)
      expect(reply.status, `${method} ${path}`).toBe(403)
      expect(reply.body.error).toBe("rol_no_permitido")
    }
    const lectura = await addUser(codigo, "lectura")
    expect((await as(lectura, "GET", "/switch/v1/eventos")).status).toBe(200)
    expect((await as(lectura, "POST", `/switch/v1/eventos/${evento}/reenviar`)).status).toBe(403)
  })
})
