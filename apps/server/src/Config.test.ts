import { describe, expect, it } from "vitest"
import { hostFromEnv } from "./Config.js"

describe("settings", () => {
  it("HOST defaults to 127.0.0.1", () => {
    expect(hostFromEnv({})).toBe("127.0.0.1")
    expect(hostFromEnv({ HOST: "" })).toBe("127.0.0.1")
    expect(hostFromEnv({ HOST: "0.0.0.0" })).toBe("0.0.0.0")
  })
})
