/**
 * The event list and stream (DESIGN §5): the key's mode only, the merchant's only, newest
 * first, and a server-sent event stream that resumes after Last-Event-ID.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { eventually, paySimulated, writeEvent } from "../../test/webhooksReceiver.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer({ settings: { apiPorMinuto: 100_000 } })
})
afterAll(() => server?.close())

interface Sse {
  readonly messages: Array<{ id: string; event: string; data: any }>
  /** Comment lines (`: ...`) as sent. */
  readonly comments: Array<string>
  /** Settles when the server ends the stream (or it is closed). */
  readonly ended: Promise<void>
  readonly close: () => void
}

/** Opens the stream and collects its messages until closed. */
const openStream = async (key: string, lastEventId?: string): Promise<Sse> => {
  const controller = new AbortController()
  const response = await fetch(`${server.url}/switch/v1/eventos/stream`, {
    headers: { "x-switch-key": key, ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) },
    signal: controller.signal
  })
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/event-stream")
  const messages: Sse["messages"] = []
  const comments: Array<string> = []
  const reader = response.body?.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  const ended = (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read()
        if (chunk === undefined || chunk.done) return
        buffer += decoder.decode(chunk.value, { stream: true })
        let end = buffer.indexOf("\n\n")
        while (end !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          comments.push(...block.split("\n").filter((line) => line.startsWith(":")))
          const fields = Object.fromEntries(
            block
              .split("\n")
              .filter((line) => !line.startsWith(":") && line.includes(": "))
              .map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)])
          )
          if (fields.data !== undefined)
            messages.push({ id: fields.id ?? "", event: fields.event ?? "", data: JSON.parse(fields.data) })
          end = buffer.indexOf("\n\n")
        }
      }
    } catch {}
  })()
  // Let the stream take its starting point before the caller writes events.
  await new Promise((r) => setTimeout(r, 300))
  return { messages, comments, ended, close: () => controller.abort() }
}

describe("eventos", () => {
  it("lists only the key's mode and the merchant's own notices, newest first, paginated", async () => {
    const a = await registerMerchant(server.url)
    const aLive = await approveMerchant(server, a.codigo)
    const b = await registerMerchant(server.url)
    const first = await paySimulated(server.url, a.key)
    const second = await paySimulated(server.url, a.key)
    await writeEvent(server.databaseUrl, a.codigo, "live")
    await paySimulated(server.url, b.key)

    const test = await call(server.url, "GET", "/switch/v1/eventos", { key: a.key })
    expect(test.status).toBe(200)
    expect(test.body.map((e: any) => [e.evento, e.data.link_id])).toEqual([
      ["link.pagado", second],
      ["link.pagado", first]
    ])
    expect(Object.keys(test.body[0])).toEqual(["id", "evento", "creado_en", "data"])
    expect(test.body[0].id).toMatch(/^evt_[0-9a-f-]{36}$/)
    expect(test.body.every((e: any) => e.data.mode === "test")).toBe(true)

    const live = await call(server.url, "GET", "/switch/v1/eventos", { key: aLive })
    expect(live.body.map((e: any) => e.data.mode)).toEqual(["live"])
    const page = await call(server.url, "GET", "/switch/v1/eventos?limit=1&offset=1", { key: a.key })
    expect(page.body.map((e: any) => e.data.link_id)).toEqual([first])
    const bad = await call(server.url, "GET", "/switch/v1/eventos?limit=0", { key: a.key })
    expect(bad.status).toBe(400)
    const other = await call(server.url, "GET", "/switch/v1/eventos", { key: b.key })
    expect(other.body).toHaveLength(1)
  })

  it("streams new notices of the key's mode and resumes after Last-Event-ID without gaps", async () => {
    const m = await registerMerchant(server.url)
    const stranger = await registerMerchant(server.url)
    const stream = await openStream(m.key)
    const one = await paySimulated(server.url, m.key)
    await writeEvent(server.databaseUrl, m.codigo, "live")
    await paySimulated(server.url, stranger.key)
    await eventually(() => stream.messages.length >= 1)
    await new Promise((r) => setTimeout(r, 800))
    stream.close()
    expect(stream.messages).toHaveLength(1)
    const [seen] = stream.messages
    expect(seen).toMatchObject({
      event: "link.pagado",
      data: { evento: "link.pagado", data: { link_id: one } }
    })
    expect(seen?.id).toMatch(/^\d+$/)

    // Missed while disconnected: resumed in order, nothing before the last seen id.
    const two = await paySimulated(server.url, m.key)
    const three = await paySimulated(server.url, m.key)
    const resumed = await openStream(m.key, seen?.id)
    await eventually(() => resumed.messages.length >= 2)
    await new Promise((r) => setTimeout(r, 800))
    resumed.close()
    expect(resumed.messages.map((e) => e.data.data.link_id)).toEqual([two, three])

    // An evt_ id works as Last-Event-ID too.
    const byEventId = await openStream(m.key, seen?.data.id)
    await eventually(() => byEventId.messages.length >= 2)
    byEventId.close()
    expect(byEventId.messages.map((e) => e.data.data.link_id)).toEqual([two, three])
  })

  it("a stream sends nothing more once its key is revoked, and ends", async () => {
    const m = await registerMerchant(server.url)
    const created = await call(server.url, "POST", "/switch/v1/llaves", {
      key: m.key,
      body: { label: "stream" }
    })
    expect(created.status).toBe(201)
    const streamKey = `${m.codigo}:${created.body.api_key}`
    const stream = await openStream(streamKey)
    const before = await paySimulated(server.url, m.key)
    await eventually(() => stream.messages.length >= 1)
    const revoked = await call(server.url, "POST", `/switch/v1/llaves/${created.body.id}/revocar`, {
      key: m.key
    })
    expect(revoked.status).toBe(200)
    let ended = false
    void stream.ended.then(() => {
      ended = true
    })
    await eventually(() => ended)
    await paySimulated(server.url, m.key)
    await new Promise((r) => setTimeout(r, 800))
    expect(stream.messages.map((e) => e.data.data.link_id)).toEqual([before])
    expect(stream.comments).toContain(": llave revocada")
    const again = await call(server.url, "GET", "/switch/v1/eventos/stream", { key: streamKey })
    expect(again.status).toBe(401)
  })

  it("the stream needs a valid key", async () => {
    const reply = await call(server.url, "GET", "/switch/v1/eventos/stream", { key: "x:sk_test_nada" })
    expect(reply.status).toBe(401)
  })
})
