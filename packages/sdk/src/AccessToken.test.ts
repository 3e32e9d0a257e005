import { describe, expect, it } from "@effect/vitest"
import { Switch } from "./Switch.js"

describe("an access token client", () => {
  it("sends the token as Authorization: Bearer and no key", async () => {
    const seen: Array<Record<string, string>> = []
    const client = new Switch({
      accessToken: "swat_abc",
      mode: "live",
      baseUrl: "http://api.test",
      fetch: async (_url, init) => {
        seen.push(init?.headers as Record<string, string>)
        return new Response("[]", { status: 200, headers: { "content-type": "application/json" } })
      }
    })
    expect(client.mode).toBe("live")
    await client.links.list()
    expect(seen[0]?.authorization).toBe("Bearer swat_abc")
    expect(seen[0]?.["x-switch-key"]).toBeUndefined()
  })
})
