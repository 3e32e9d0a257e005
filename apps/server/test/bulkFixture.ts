/**
 * The set-up the bulk-action tests share (links/accionesMasivas*): a server that delivers
 * notices to a loopback receiver, a database client on its database, and a merchant whose
 * owner has a portal session.
 */
import { randomUUID } from "node:crypto"
import Pg from "pg"
import { expect } from "vitest"
import { call, startServer, type TestServer } from "./harness.js"
import { signInOwner } from "./ownerSession.js"
import { type Receiver, startReceiver } from "./webhooksReceiver.js"

/** The password of every owner the fixture registers. */
export const PASSWORD = "una-clave-larga-1"

export interface BulkRig {
  readonly server: TestServer
  readonly db: Pg.Client
  readonly receiver: Receiver
}

/** Starts the receiver, then the server (private webhook addresses allowed), then a client on its database. */
export const startBulkRig = async (): Promise<BulkRig> => {
  const receiver = await startReceiver()
  let server: TestServer | undefined
  try {
    server = await startServer({ settings: { apiPorMinuto: 100_000, webhookAllowPrivate: true } })
    const db = new Pg.Client({ connectionString: server.databaseUrl })
    await db.connect()
    return { server, db, receiver }
  } catch (error) {
    await server?.close()
    await receiver.close()
    throw error
  }
}

/** Closes what {@link startBulkRig} opened, in the order the tests closed it. */
export const closeBulkRig = async (rig: Partial<BulkRig>) => {
  await rig.db?.end()
  await rig.server?.close()
  await rig.receiver?.close()
}

/** A registered merchant (`Tienda m…`): its API key and its owner's session as request headers. */
export const bulkMerchant = async (server: TestServer) => {
  const codigo = `m${randomUUID().slice(0, 8)}`
  const email = `${codigo}@dueno.example`
  const made = await call(server.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: `Tienda ${codigo}`, identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(made.status).toBe(201)
  const headers = await signInOwner(server.url, email, PASSWORD)
  return { key: `${codigo}:${made.body.api_key}`, headers }
}

/** Pays the test link `id` by simulation (`resultado: "pagado"`) and expects `200`. */
export const simulatePaid = async (server: TestServer, key: string, id: string) =>
  expect(
    (
      await call(server.url, "POST", `/switch/v1/links/${id}/simular`, {
        key,
        body: { resultado: "pagado" }
      })
    ).status
  ).toBe(200)

/** How many `link.pagado` notices naming `id` the receiver has got. */
export const pagadoNotices = (receiver: Receiver, id: string) =>
  receiver.received.filter((r) => r.body.includes('"link.pagado"') && r.body.includes(id)).length
