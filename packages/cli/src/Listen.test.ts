import { describe, expect, it } from "vitest"
import { sseMessages } from "./Listen.js"

const streamOf = (chunks: ReadonlyArray<string>) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      controller.close()
    }
  })

const collect = async (chunks: ReadonlyArray<string>) => {
  let activity = 0
  const out = []
  for await (const message of sseMessages(streamOf(chunks), () => activity++)) out.push(message)
  return { out, activity }
}

describe("server-sent events", () => {
  it("reads ids and data across chunk boundaries, CRLF and lone CR line ends, and skips comments", async () => {
    const { out, activity } = await collect([
      "retry: 2000\n: conectado\n\n",
      "id: 7\nevent: link.pagado\nda",
      'ta: {"a":1}\r\n\r',
      "\nid: 8\rdata: x\r\rdata: sin id nuevo\n\n: ping\n\n"
    ])
    expect(out).toEqual([
      { id: "7", event: "link.pagado", data: '{"a":1}' },
      { id: "8", event: "message", data: "x" },
      { id: "8", event: "message", data: "sin id nuevo" }
    ])
    expect(activity).toBe(4)
  })

  it("joins multi-line data and ignores a message without data", async () => {
    const { out } = await collect(["event: vacio\n\ndata: a\ndata: b\n\n"])
    expect(out).toEqual([{ id: undefined, event: "message", data: "a\nb" }])
  })
})

describe("listen", () => {
  it("treats a silent connection as dead, reconnects with Last-Event-ID and never repeats a notice", async () => {
    const { listen } = await import("./Listen.js")
    const envelope = (n: number) =>
      JSON.stringify({ id: `evt_${n}`, evento: "link.pagado", creado_en: "", data: {} })
    const calls: Array<Record<string, string>> = []
    const controller = new AbortController()
    const fakeFetch = async (_url: string, init: RequestInit) => {
      calls.push(init.headers as Record<string, string>)
      const first = calls.length === 1
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          const text = first
            ? `id: 7\ndata: ${envelope(7)}\n\n`
            : `id: 7\ndata: ${envelope(7)}\n\nid: 8\ndata: ${envelope(8)}\n\n`
          stream.enqueue(new TextEncoder().encode(text))
          // Then silence: no close, no heartbeat (a half-open connection).
          init.signal?.addEventListener("abort", () => stream.error(new Error("aborted")))
        }
      })
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } })
    }
    const seen: Array<string> = []
    const drops: Array<string> = []
    const done = listen({
      baseUrl: "http://switch.test",
      key: "demo:sk_test_x",
      secret: "whsec_x",
      signal: controller.signal,
      fetch: fakeFetch,
      idleTimeoutMs: 150,
      maxBackoffMs: 10,
      onReady: () => undefined,
      onDisconnect: ({ reason }) => {
        drops.push(reason)
        if (drops.length === 2) controller.abort()
      },
      onNotice: (notice) => seen.push(notice.event.id),
      onForwarded: () => undefined
    })
    await done
    expect(seen).toEqual(["evt_7", "evt_8"])
    expect(drops[0]).toMatch(/sin señal/)
    expect(calls[0]?.["last-event-id"]).toBeUndefined()
    expect(calls[1]?.["last-event-id"]).toBe("7")
  })
})
