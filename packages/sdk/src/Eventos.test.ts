/** The notices list's cursor on the wire: `starting_after` given by the caller, then each page's last id. */
import { describe, expect, it } from "vitest"
import { Switch } from "./Switch.js"

const notice = (n: number) => ({
  id: `evt_${n}`,
  evento: "link.pagado",
  creado_en: "2026-01-01T00:00:00Z",
  data: {}
})

describe("sw.eventos.list", () => {
  it("starts after the notice given as starting_after, and pages on after each page's last notice", async () => {
    const urls: Array<string> = []
    const pages = [[notice(9), notice(8)], [notice(7)]]
    const sw = new Switch({
      key: "demo:sk_test_abc",
      baseUrl: "http://api.test",
      fetch: async (url: string) => {
        urls.push(url)
        return new Response(JSON.stringify(pages[urls.length - 1] ?? []), {
          status: 200,
          headers: { "content-type": "application/json" }
        })
      }
    })
    const ids: Array<string> = []
    for await (const event of sw.eventos.list({
      starting_after: "evt_10",
      evento: "link.pagado",
      limit: 2
    })) {
      ids.push(event.id)
    }
    expect(ids).toEqual(["evt_9", "evt_8", "evt_7"])
    expect(urls).toEqual([
      "http://api.test/switch/v1/eventos?limit=2&offset=0&evento=link.pagado&starting_after=evt_10",
      "http://api.test/switch/v1/eventos?limit=2&offset=0&evento=link.pagado&starting_after=evt_8"
    ])
  })

  it("sends no cursor when none is given", async () => {
    const urls: Array<string> = []
    const sw = new Switch({
      key: "demo:sk_test_abc",
      baseUrl: "http://api.test",
      fetch: async (url: string) => {
        urls.push(url)
        return new Response("[]", { status: 200, headers: { "content-type": "application/json" } })
      }
    })
    await sw.eventos.list({ limit: 5 })
    expect(urls).toEqual(["http://api.test/switch/v1/eventos?limit=5&offset=0"])
  })
})

describe("sw.eventos.cambios", () => {
  it("yields each change, skips heartbeats, and reconnects after the last id seen (Last-Event-ID)", async () => {
    const asked: Array<{ url: string; lastEventId: string | null }> = []
    const bodies = [
      'retry: 2000\nid: 7\n: conectado\n\nid: 8\nevent: cambio\ndata: {"evento":"link.pagado","link_id":"a","txn_id":"t"}\n\n: ping\n\n',
      'retry: 2000\nid: 8\n: conectado\n\nid: 9\nevent: cambio\ndata: {"evento":"link.devuelto","link_id":"a","txn_id":null}\n\n'
    ]
    const controller = new AbortController()
    const sw = Switch.sesion({
      baseUrl: "http://panel.test",
      fetch: async (url: string, init: RequestInit) => {
        const headers = new Headers(init.headers)
        asked.push({ url, lastEventId: headers.get("last-event-id") })
        const body = bodies[asked.length - 1]
        if (body === undefined) return new Promise<Response>(() => {})
        return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } })
      }
    })
    const seen: Array<unknown> = []
    for await (const cambio of sw.eventos.cambios({ signal: controller.signal })) {
      seen.push(cambio)
      if (seen.length === 2) controller.abort()
    }
    expect(seen).toEqual([
      { evento: "link.pagado", link_id: "a", txn_id: "t" },
      { evento: "link.devuelto", link_id: "a", txn_id: null }
    ])
    expect(asked).toEqual([
      { url: "http://panel.test/switch/v1/sesion/cambios", lastEventId: null },
      { url: "http://panel.test/switch/v1/sesion/cambios", lastEventId: "8" }
    ])
  }, 10_000)
})
