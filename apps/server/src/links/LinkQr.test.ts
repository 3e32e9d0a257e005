import { describe, expect, it } from "@effect/vitest"
import jsQRModule from "jsqr"
import { PNG } from "pngjs"
import { drawQr, makeLru } from "./LinkQr.js"

const jsQR = jsQRModule.default

describe("drawQr", () => {
  it("draws a PNG that decodes to the text, with an ETag of its bytes", async () => {
    const url = "https://pagos.switch.test/l/0b8f4a4e-7c1d-4a55-9a0e-5d0f3f0a1b2c"
    const { png, etag } = await drawQr(url)
    const image = PNG.sync.read(Buffer.from(png))
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(url)
    expect((await drawQr(url)).etag).toBe(etag)
    expect((await drawQr(`${url}x`)).etag).not.toBe(etag)
  })
})

describe("makeLru", () => {
  it("keeps at most its size, dropping the least recently used", async () => {
    const lru = makeLru<string>(2)
    let made = 0
    const make = (value: string) => () => {
      made += 1
      return Promise.resolve(value)
    }
    await lru.get("a", make("A"))
    await lru.get("b", make("B"))
    expect(await lru.get("a", make("other"))).toBe("A") // a is now the most recent
    await lru.get("c", make("C")) // drops b
    expect(lru.size()).toBe(2)
    expect(made).toBe(3)
    expect(await lru.get("a", make("other"))).toBe("A")
    expect(await lru.get("b", make("B again"))).toBe("B again")
    expect(made).toBe(4)
  })

  it("makes a value once for concurrent gets, and forgets a failed or null one", async () => {
    const lru = makeLru<string>(10)
    let made = 0
    const slow = () => {
      made += 1
      return new Promise<string>((resolve) => setTimeout(() => resolve("v"), 5))
    }
    expect(await Promise.all([lru.get("k", slow), lru.get("k", slow), lru.get("k", slow)])).toEqual([
      "v",
      "v",
      "v"
    ])
    expect(made).toBe(1)

    await expect(lru.get("bad", () => Promise.reject(new Error("no")))).rejects.toThrow("no")
    expect(await lru.get("none", () => Promise.resolve(null))).toBeNull()
    await new Promise((resolve) => setImmediate(resolve))
    expect(lru.size()).toBe(1)
    expect(await lru.get("bad", () => Promise.resolve("ok"))).toBe("ok")
    expect(await lru.get("none", () => Promise.resolve("found"))).toBe("found")
  })
})
