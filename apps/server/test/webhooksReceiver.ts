/** A real webhook receiver on loopback for the webhook tests, and small helpers. */
import { createHmac, randomUUID } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { Effect } from "effect"
import Pg from "pg"
import * as Outbox from "../src/platform/Outbox.js"
import { PgLive } from "../src/platform/Sql.js"
import { call } from "./harness.js"

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** Status (and headers) for the next request, by its 0-based index; default 200. */
  respond: (index: number) => { status: number; headers?: Record<string, string> }
  readonly close: () => Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const receiver: Receiver = {
    url: "",
    received,
    respond: () => ({ status: 200 }),
    close: () => new Promise((done) => server.close(() => done()))
  }
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const index = received.length
      received.push({
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now()
      })
      const { status, headers } = receiver.respond(index)
      response.writeHead(status, { "content-type": "text/plain", ...headers })
      response.end("ok")
    })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hooks` })
}

const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex")

/** Checks both signatures of a received notice with the webhook's secret. */
export const signaturesValid = (notice: Received, secret: string): boolean => {
  const v1 = notice.headers["x-service-signature"]
  const v2 = String(notice.headers["x-service-signature-v2"] ?? "")
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(v2)
  if (match === null) return false
  const [, t, sig] = match
  return (
    v1 === `sha256=${hmac(secret, notice.body)}` &&
    sig === hmac(secret, `${t}.${notice.body}`) &&
    notice.headers["x-service-timestamp"] === t
  )
}

/** Polls `check` until it is truthy or `ms` pass. */
export const eventually = async <T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  ms = 15_000,
  every = 100
): Promise<T> => {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, every))
  }
}

/** A test link paid through the simulate route; returns its id. */
export const paySimulated = async (base: string, key: string, monto = 100): Promise<string> => {
  const link = await call(base, "POST", "/switch/v1/links", {
    key,
    body: { monto, concepto: "Prueba webhook" }
  })
  if (link.status !== 201) throw new Error(`link: ${link.status} ${JSON.stringify(link.body)}`)
  const paid = await call(base, "POST", `/switch/v1/links/${link.body.id}/simular`, {
    key,
    body: { resultado: "pagado" }
  })
  if (paid.status !== 200) throw new Error(`simular: ${paid.status} ${JSON.stringify(paid.body)}`)
  return link.body.id
}

/** Runs one statement on the test database (to write a live event directly). */
export const query = async <T = any>(databaseUrl: string, text: string, values: Array<unknown> = []) => {
  const client = new Pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query(text, values)).rows as Array<T>
  } finally {
    await client.end()
  }
}

/**
 * Writes a `link.pagado` notice as a payment would, through the server's outbox (the event row,
 * its deliveries and their jobs, in one transaction), for a link that need not exist.
 */
export const writeEvent = async (
  databaseUrl: string,
  codigo: string,
  mode: "test" | "live",
  linkId: string = randomUUID()
) => {
  const [merchant] = await query<{ id: string }>(databaseUrl, "select id from comercios where codigo = $1", [
    codigo
  ])
  if (merchant === undefined) throw new Error(`no merchant ${codigo}`)
  const id = await Effect.runPromise(
    Outbox.write({
      comercioId: merchant.id,
      mode,
      evento: "link.pagado",
      data: {
        link_id: linkId,
        monto: 10,
        propina: 0,
        total: 10,
        mode,
        referencia: "SIMULADO",
        txn_id: randomUUID(),
        codigo_verificacion: null,
        pagador: { alta_cliente: false }
      },
      dedupe: null,
      at: new Date()
    }).pipe(Effect.provide(PgLive(databaseUrl, { maxConnections: 1, prepared: false })))
  )
  return [{ id }]
}
