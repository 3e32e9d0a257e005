/**
 * Secrets stored before sealing existed are sealed at the next start (platform/SealLegacy.ts):
 * the stored text changes, what it opens to does not, and deliveries still sign with it.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import {
  eventually,
  paySimulated,
  query,
  type Receiver,
  signaturesValid,
  startReceiver
} from "../../test/webhooksReceiver.js"
import { prepare } from "../Prepare.js"
import * as Sealed from "./Sealed.js"

let server: TestServer
let receiver: Receiver

beforeAll(async () => {
  server = await startServer({ settings: { webhookAllowPrivate: true, apiPorMinuto: 100_000 } })
  receiver = await startReceiver()
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
})

const restart = () => prepare(server.databaseUrl, server.settings, { seed: false })

describe("sealing secrets stored before sealing", () => {
  it("a plaintext webhook secret is sealed at start and still signs deliveries", async () => {
    const merchant = await registerMerchant(server.url)
    const liveKey = await approveMerchant(server, merchant.codigo)
    const created = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: `${receiver.url}?legado`, eventos: ["link.pagado"] }
    })
    expect(created.status).toBe(201)
    const hook = created.body as { id: string }
    const legacy = `whsec_${randomUUID().replaceAll("-", "")}`
    await query(server.databaseUrl, "update webhooks set secret = $2 where id = $1", [hook.id, legacy])

    await restart()
    const [stored] = await query(server.databaseUrl, "select secret from webhooks where id = $1", [hook.id])
    expect(stored.secret).toMatch(/^v1:/)
    expect(stored.secret).not.toContain(legacy.slice(6))
    expect(Sealed.open(server.settings.secret, "webhook", hook.id, stored.secret)).toBe(legacy)

    receiver.respond = () => ({ status: 200 })
    const linkId = await paySimulated(server.url, merchant.key)
    const notice = await eventually(() => receiver.received.find((r) => r.body.includes(linkId)))
    expect(signaturesValid(notice, legacy)).toBe(true)

    // A second start leaves sealed values alone.
    await restart()
    const [again] = await query(server.databaseUrl, "select secret from webhooks where id = $1", [hook.id])
    expect(again.secret).toBe(stored.secret)
  })

  it("plaintext Flows keys and secrets are sealed at start, each under its own purpose", async () => {
    const merchant = await registerMerchant(server.url)
    const [comercio] = await query(server.databaseUrl, "select id from comercios where codigo = $1", [
      merchant.codigo
    ])
    const id = randomUUID()
    await query(
      server.databaseUrl,
      `insert into flow_bindings (id, comercio_id, mode, flow_secret_mac, cuenta, monto_secret, app_secret,
         private_key, public_key)
       values ($1, $2, 'test', 'mac', '{}', 'monto-legado', 'app-legado', 'clave-legada', 'publica')`,
      [id, comercio.id]
    )
    await restart()
    const [row] = await query(
      server.databaseUrl,
      "select monto_secret, app_secret, private_key, public_key from flow_bindings where id = $1",
      [id]
    )
    for (const [column, plain] of [
      ["monto_secret", "monto-legado"],
      ["app_secret", "app-legado"],
      ["private_key", "clave-legada"]
    ] as const) {
      expect(row[column]).toMatch(/^v1:/)
      expect(Sealed.open(server.settings.secret, `flow:${column}`, id, row[column])).toBe(plain)
    }
    expect(row.public_key).toBe("publica")
  })
})
