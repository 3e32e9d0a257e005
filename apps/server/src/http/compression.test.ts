/**
 * Compression (issue 46, Compression.ts): the coding the client accepts (q-values, brotli
 * preferred), `Vary: Accept-Encoding`, the 1 KB threshold, identity without the header, bodies
 * that decode to the uncompressed ones, static files compressed at build time, no compression of
 * event streams, and never of an answer that carries a key or a secret: the list of those comes
 * from the contract itself, and each is called for real here.
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib"
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, OWN_ACCOUNT, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import { freshStep } from "../../test/totpStep.js"
import { ASSETS } from "../checkout/CheckoutRoutes.js"
import { ASSETS as MI_PAGINA_ASSETS } from "../mipagina/MiPaginaRoutes.js"
import { totpCode, totpStep } from "../platform/Totp.js"
import * as Compression from "./Compression.js"
import { secretJson } from "./Respond.js"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

/** One request with exactly `headers` (fetch would add its own Accept-Encoding and decode). */
const raw = (
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown
): Promise<Raw> =>
  new Promise((done, fail) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    const req = httpRequest(
      `${base}${path}`,
      {
        method,
        headers: { ...headers, ...(text === undefined ? {} : { "content-type": "application/json" }) }
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })
        )
        res.on("error", fail)
      }
    )
    req.on("error", fail)
    req.end(text)
  })

/** The body as sent, decoded by its Content-Encoding. */
const decoded = (reply: Raw): Buffer =>
  reply.headers["content-encoding"] === "br"
    ? brotliDecompressSync(reply.body)
    : reply.headers["content-encoding"] === "gzip"
      ? gunzipSync(reply.body)
      : reply.body

const BOTH = { "accept-encoding": "gzip, deflate, br" }

let server: TestServer
let portal: string
/** A portal asset over 1 KB, with the build's .br and .gz beside it. */
const BIG_JS = `console.log(${JSON.stringify("panel ".repeat(800))});\n`
const BUILT_BR = brotliCompressSync(Buffer.from(BIG_JS))
const BUILT_GZ = gzipSync(Buffer.from(BIG_JS))

beforeAll(async () => {
  portal = mkdtempSync(join(tmpdir(), "portal-compresion-"))
  mkdirSync(join(portal, "assets"))
  writeFileSync(
    join(portal, "index.html"),
    `<!doctype html><title>Panel</title>${"<p>Panel</p>".repeat(200)}`
  )
  writeFileSync(
    join(portal, "operador.html"),
    `<!doctype html><title>Consola</title>${"<p>Consola</p>".repeat(200)}`
  )
  writeFileSync(join(portal, "assets", "app-AbC12345.js"), BIG_JS)
  writeFileSync(join(portal, "assets", "app-AbC12345.js.br"), BUILT_BR)
  writeFileSync(join(portal, "assets", "app-AbC12345.js.gz"), BUILT_GZ)
  // No .br beside this one: compressed once, at its first request.
  writeFileSync(join(portal, "assets", "sola-XyZ98765.css"), `.a{color:red}\n`.repeat(200))
  server = await startServer({ settings: { portalDir: portal, webhookAllowPrivate: true } })
})
afterAll(async () => {
  await server?.close()
  rmSync(portal, { recursive: true, force: true })
})

describe("negotiation", () => {
  it("prefers brotli, honours q-values and falls back to identity", () => {
    expect(Compression.negotiate(undefined)).toBe("identity")
    expect(Compression.negotiate("")).toBe("identity")
    expect(Compression.negotiate("identity")).toBe("identity")
    expect(Compression.negotiate("deflate")).toBe("identity")
    expect(Compression.negotiate("gzip, deflate, br")).toBe("br")
    expect(Compression.negotiate("gzip")).toBe("gzip")
    expect(Compression.negotiate("br;q=0, gzip")).toBe("gzip")
    expect(Compression.negotiate("gzip;q=0.8, br;q=0.5")).toBe("gzip")
    expect(Compression.negotiate("gzip;q=0.5, br;q=0.5")).toBe("br")
    expect(Compression.negotiate("*")).toBe("br")
    expect(Compression.negotiate("*;q=0.3, br;q=0")).toBe("gzip")
    expect(Compression.negotiate("gzip;q=0, br;q=0")).toBe("identity")
    expect(Compression.negotiate("*;q=0")).toBe("identity")
    expect(Compression.negotiate("GZIP;Q=1")).toBe("gzip")
    expect(Compression.negotiate("br;q=abc, gzip")).toBe("gzip")
  })

  it("compresses text, never an event stream", () => {
    for (const type of ["text/html; charset=utf-8", "application/json", "text/css", "text/javascript"])
      expect(Compression.compressibleType(type), type).toBe(true)
    for (const type of ["text/event-stream", "image/png", "application/octet-stream", undefined])
      expect(Compression.compressibleType(type), String(type)).toBe(false)
  })
})

describe("what carries a secret, from the contract", () => {
  it("every answer field of the contract named like a secret is classified, secret or not", () => {
    const unclassified = Compression.contractRoutes().flatMap((route) =>
      [...route.fields]
        .filter((field) => Compression.LOOKS_SECRET.test(field))
        .filter((field) => !Compression.SECRET_FIELDS.has(field) && !Compression.NOT_SECRET_FIELDS.has(field))
        .map((field) => `${route.method} ${route.path}: ${field}`)
    )
    expect(unclassified).toEqual([])
  })

  it("the contract's routes with a secret in their answers are these (a new one shows up here)", () => {
    expect(Compression.contractSecretRoutes().map((r) => `${r.method} ${r.path}`)).toEqual(
      Object.keys(SECRET_CALLS)
    )
  })

  it("routing's matcher finds each secret route as declared, and no other", () => {
    const isSecret = Compression.makeSecretRoutes()
    expect(isSecret("POST", "/switch/v1/llaves")).toBe(true)
    expect(isSecret("POST", "/admin/v1/comercios/tienda/aprobar")).toBe(true)
    expect(isSecret("POST", "/oauth/token")).toBe(true)
    expect(isSecret("GET", "/switch/v1/sesion")).toBe(true)
    expect(isSecret("HEAD", "/switch/v1/sesion")).toBe(true)
    expect(isSecret("GET", "/switch/v1/llaves")).toBe(false)
    expect(isSecret("GET", "/switch/v1/links")).toBe(false)
    expect(isSecret("GET", "/l/abc")).toBe(false)
    // Exact spelling only: routing answers no other (http/Canonical.ts).
    expect(isSecret("POST", "/SWITCH/v1/llaves")).toBe(false)
  })

  it("an answer built by secretJson is never compressed, whatever its size, and loses its mark", async () => {
    const request = HttpServerRequest.fromWeb(
      new Request("http://x/otra", { headers: { "accept-encoding": "br, gzip" } })
    )
    const big = secretJson({ api_key: "sk_test_x", relleno: "x".repeat(5000) })
    const out = await Effect.runPromise(Compression.compress(request, big, false))
    expect(out.headers["content-encoding"]).toBeUndefined()
    expect(out.headers[Compression.SECRET_MARK]).toBeUndefined()
    expect(out.headers["cache-control"]).toBe("no-store")
    const plain = HttpServerResponse.unsafeJson({ relleno: "x".repeat(5000) })
    expect(
      (await Effect.runPromise(Compression.compress(request, plain, false))).headers["content-encoding"]
    ).toBe("br")
    expect(
      (await Effect.runPromise(Compression.compress(request, plain, true))).headers["content-encoding"]
    ).toBeUndefined()
  })
})

describe("answers", () => {
  const newLink = async (key: string) => {
    const made = await call(server.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 150.5, concepto: "Pan" }
    })
    expect(made.status).toBe(201)
    return made.body.id as string
  }

  it("the payer page: brotli, gzip or identity as asked, Vary, the same page once decoded", async () => {
    const { key } = await registerMerchant(server.url)
    const id = await newLink(key)
    const first = await raw(server.url, "GET", `/l/${id}`)
    const cookie = String(first.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? ""
    const plain = await raw(server.url, "GET", `/l/${id}`, { cookie })
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.headers.vary).toContain("Accept-Encoding")
    expect(plain.body.byteLength).toBeGreaterThan(Compression.MIN_BYTES)
    for (const [accept, coding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["br;q=0.1, gzip;q=0.9", "gzip"],
      ["identity", undefined],
      ["br;q=0, gzip;q=0", undefined]
    ] as const) {
      const reply = await raw(server.url, "GET", `/l/${id}`, { cookie, "accept-encoding": accept })
      expect(reply.headers["content-encoding"], accept).toBe(coding)
      expect(reply.headers.vary, accept).toContain("Accept-Encoding")
      expect(decoded(reply).toString("utf8"), accept).toBe(plain.body.toString("utf8"))
      if (coding !== undefined) expect(reply.body.byteLength).toBeLessThan(plain.body.byteLength / 2)
    }
  })

  it("JSON over 1 KB is compressed, a smaller answer is not, and both decode to the same JSON", async () => {
    const { key } = await registerMerchant(server.url)
    await newLink(key)
    const small = await raw(server.url, "GET", "/switch/v1/links?limit=1", { ...BOTH, "x-switch-key": key })
    expect(small.status).toBe(200)
    expect(small.body.byteLength).toBeLessThanOrEqual(Compression.MIN_BYTES)
    expect(small.headers["content-encoding"]).toBeUndefined()
    expect(small.headers.vary).toContain("Accept-Encoding")
    for (let i = 0; i < 5; i++) await newLink(key)
    const big = await raw(server.url, "GET", "/switch/v1/links?limit=6", { ...BOTH, "x-switch-key": key })
    const bigPlain = await raw(server.url, "GET", "/switch/v1/links?limit=6", { "x-switch-key": key })
    expect(bigPlain.body.byteLength).toBeGreaterThan(Compression.MIN_BYTES)
    expect(bigPlain.headers["content-encoding"]).toBeUndefined()
    expect(big.headers["content-encoding"]).toBe("br")
    expect(big.headers["content-type"]).toContain("application/json")
    expect(JSON.parse(decoded(big).toString("utf8"))).toEqual(JSON.parse(bigPlain.body.toString("utf8")))
  })

  it("/estado is compressed; the portal's and the console's pages and files too, the build's forms as they are", async () => {
    const estado = await raw(server.url, "GET", "/estado", BOTH)
    expect(estado.headers["content-encoding"]).toBe("br")
    expect(decoded(estado).toString("utf8")).toContain("Estado del servicio")

    const built = await raw(server.url, "GET", "/panel/assets/app-AbC12345.js", BOTH)
    expect(built.headers["content-encoding"]).toBe("br")
    expect(built.headers.vary).toContain("Accept-Encoding")
    expect(built.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(Buffer.compare(built.body, BUILT_BR)).toBe(0)
    const builtGz = await raw(server.url, "GET", "/panel/assets/app-AbC12345.js", {
      "accept-encoding": "gzip"
    })
    expect(Buffer.compare(builtGz.body, BUILT_GZ)).toBe(0)
    // The build's .br and .gz are no files of their own.
    expect((await raw(server.url, "GET", "/panel/assets/app-AbC12345.js.br")).status).toBe(404)

    const css = await raw(server.url, "GET", "/panel/assets/sola-XyZ98765.css", BOTH)
    expect(css.headers["content-encoding"]).toBe("br")
    expect(decoded(css).toString("utf8")).toBe(`.a{color:red}\n`.repeat(200))
    const again = await raw(server.url, "GET", "/panel/assets/sola-XyZ98765.css", BOTH)
    expect(Buffer.compare(again.body, css.body)).toBe(0)

    for (const path of ["/panel", "/panel/links", "/operador"]) {
      const page = await raw(server.url, "GET", path, BOTH)
      expect(page.headers["content-encoding"], path).toBe("br")
      expect(decoded(page).toString("utf8"), path).toContain("<!doctype html>")
    }

    const script = await raw(server.url, "GET", ASSETS.js, { "accept-encoding": "gzip" })
    expect(script.headers["content-encoding"]).toBe("gzip")
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
  })

  it("mi página and its stylesheet are compressed", async () => {
    const codigo = `mp${randomUUID().slice(0, 8)}`
    const email = `${codigo}@dueno.example`
    const made = await raw(
      server.url,
      "POST",
      "/switch/v1/comercios/registrar",
      {},
      {
        codigo,
        nombre: `Tienda ${codigo}`,
        identificacion: "J-07013380-5",
        email,
        password: PASSWORD
      }
    )
    expect(made.status).toBe(201)
    const signedIn = await raw(server.url, "POST", "/switch/v1/sesion", {}, { email, password: PASSWORD })
    const session = {
      cookie: String(signedIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "",
      "x-csrf-token": JSON.parse(signedIn.body.toString("utf8")).csrf_token
    }
    const on = await raw(server.url, "PUT", "/switch/v1/mi-pagina", session, {
      activa: true,
      monto_min: 10,
      monto_max: 5000,
      concepto_permitido: true
    })
    expect(on.status).toBe(200)
    const page = await raw(server.url, "GET", `/p/${codigo}`, BOTH)
    expect(page.status).toBe(200)
    expect(page.headers["content-encoding"]).toBe("br")
    expect(page.headers.vary).toContain("Accept-Encoding")
    expect(decoded(page).toString("utf8")).toContain("<!doctype html>")
    const style = await raw(server.url, "GET", MI_PAGINA_ASSETS.css, { "accept-encoding": "gzip" })
    expect(style.headers["content-encoding"]).toBe("gzip")
    expect(style.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
  })

  it("the event stream is never compressed", async () => {
    const { key } = await registerMerchant(server.url)
    const headers = await new Promise<Record<string, unknown>>((done, fail) => {
      const req = httpRequest(
        `${server.url}/switch/v1/eventos/stream`,
        { headers: { ...BOTH, "x-switch-key": key } },
        (res) => {
          done(res.headers)
          req.destroy()
        }
      )
      req.on("error", (e) => ((e as { code?: string }).code === "ECONNRESET" ? undefined : fail(e)))
      req.end()
    })
    expect(String(headers["content-type"])).toContain("text/event-stream")
    expect(headers["content-encoding"]).toBeUndefined()
  })
})

/** An answer with a secret: sent as it is, with no Vary (its encoding never depends on the client). */
const expectUncompressed = (what: string, reply: Raw, field: string) => {
  expect(reply.status, `${what}: ${reply.body.toString("utf8")}`).toBeLessThan(300)
  expect(reply.headers["content-encoding"], what).toBeUndefined()
  expect(reply.headers.vary ?? "", what).not.toContain("Accept-Encoding")
  expect(reply.headers[Compression.SECRET_MARK], what).toBeUndefined()
  expect(JSON.parse(reply.body.toString("utf8"))[field], what).toBeTruthy()
}

interface Ctx {
  codigo: string
  key: string
  liveKey: string
  session: Record<string, string>
  /** The TOTP secret and step of the enrolment the recovery codes' calls make. */
  secreto?: string
  step?: number
}

/** A real call of each contract route whose answer carries a secret, and the field that carries it. */
const SECRET_CALLS: Record<string, { field: string; run: (ctx: Ctx) => Promise<Raw> }> = {
  "POST /switch/v1/comercios/registrar": {
    field: "api_key",
    run: () => {
      const codigo = `comp${randomUUID().slice(0, 8)}`
      return raw(server.url, "POST", "/switch/v1/comercios/registrar", BOTH, {
        codigo,
        nombre: "Con secreto",
        identificacion: "J-07013380-5",
        email: `${codigo}@example.com`
      })
    }
  },
  "POST /switch/v1/llaves": {
    field: "api_key",
    run: (ctx) =>
      raw(server.url, "POST", "/switch/v1/llaves", { ...BOTH, "x-switch-key": ctx.key }, { label: "otra" })
  },
  "POST /switch/v1/llaves/:id/rotar": {
    field: "api_key",
    run: async (ctx) => {
      const made = await raw(
        server.url,
        "POST",
        "/switch/v1/llaves",
        { "x-switch-key": ctx.key },
        { label: "rotar" }
      )
      const { id } = JSON.parse(made.body.toString("utf8"))
      return raw(
        server.url,
        "POST",
        `/switch/v1/llaves/${id}/rotar`,
        { ...BOTH, "x-switch-key": ctx.key },
        { solapamiento_horas: 1 }
      )
    }
  },
  "POST /switch/v1/webhooks": {
    field: "secret",
    run: (ctx) =>
      raw(
        server.url,
        "POST",
        "/switch/v1/webhooks",
        { ...BOTH, "x-switch-key": ctx.liveKey },
        { url: "http://127.0.0.1:9/hook", eventos: ["*"] }
      )
  },
  "POST /switch/v1/flow/config": {
    field: "flow_secret",
    run: (ctx) =>
      raw(
        server.url,
        "POST",
        "/switch/v1/flow/config",
        { ...BOTH, "x-switch-key": ctx.liveKey },
        {
          cuenta: { ...OWN_ACCOUNT, identificacion: "J070133805", tipo_doc: "J" },
          app_secret: "de-meta",
          mode: "test"
        }
      )
  },
  "POST /switch/v1/sesion": {
    field: "csrf_token",
    run: (ctx) =>
      raw(server.url, "POST", "/switch/v1/sesion", BOTH, {
        email: `${ctx.codigo}@example.com`,
        password: PASSWORD
      })
  },
  "GET /switch/v1/sesion": {
    field: "csrf_token",
    run: (ctx) => raw(server.url, "GET", "/switch/v1/sesion", { ...BOTH, ...ctx.session })
  },
  "POST /switch/v1/sesion/modo": {
    field: "csrf_token",
    run: (ctx) =>
      raw(server.url, "POST", "/switch/v1/sesion/modo", { ...BOTH, ...ctx.session }, { mode: "test" })
  },
  "POST /switch/v1/sesion/totp": {
    field: "secreto",
    run: (ctx) => raw(server.url, "POST", "/switch/v1/sesion/totp", { ...BOTH, ...ctx.session })
  },
  // The secret's QR code and the recovery codes: enrolled again, confirmed, new codes made.
  "POST /switch/v1/sesion/totp/confirmar": {
    field: "codigos_recuperacion",
    run: async (ctx) => {
      const started = await raw(server.url, "POST", "/switch/v1/sesion/totp", { ...BOTH, ...ctx.session })
      const body = JSON.parse(started.body.toString("utf8"))
      expectUncompressed("the QR code of POST /switch/v1/sesion/totp", started, "qr_svg")
      ctx.secreto = body.secreto as string
      ctx.step = await freshStep()
      return raw(
        server.url,
        "POST",
        "/switch/v1/sesion/totp/confirmar",
        { ...BOTH, ...ctx.session },
        { codigo: totpCode(ctx.secreto, ctx.step - 1) }
      )
    }
  },
  "POST /switch/v1/sesion/totp/recuperacion": {
    field: "codigos_recuperacion",
    run: (ctx) =>
      raw(
        server.url,
        "POST",
        "/switch/v1/sesion/totp/recuperacion",
        { ...BOTH, ...ctx.session },
        { codigo: totpCode(ctx.secreto ?? "", ctx.step ?? 0) }
      )
  }
}

const PASSWORD = "una-clave-larga-1"
const ADMIN = { "x-admin-token": "admin-de-prueba" }

describe("answers with a key or a secret are never compressed", () => {
  it("every contract route with a secret in its answer, called for real", async () => {
    const codigo = `compsec${randomUUID().slice(0, 6)}`
    const registered = await raw(server.url, "POST", "/switch/v1/comercios/registrar", BOTH, {
      codigo,
      nombre: "Con secreto",
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`,
      password: PASSWORD
    })
    expectUncompressed("registrar", registered, "api_key")
    const key = `${codigo}:${JSON.parse(registered.body.toString("utf8")).api_key}`
    const approved = await raw(
      server.url,
      "POST",
      `/admin/v1/comercios/${codigo}/aprobar`,
      { ...BOTH, ...ADMIN },
      {
        cuenta_liquidacion: OWN_ACCOUNT,
        emitir_llave: true
      }
    )
    expectUncompressed("aprobar con emitir_llave", approved, "api_key")
    const liveKey = `${codigo}:${JSON.parse(approved.body.toString("utf8")).api_key}`
    const signedIn = await raw(
      server.url,
      "POST",
      "/switch/v1/sesion",
      {},
      { email: `${codigo}@example.com`, password: PASSWORD }
    )
    const cookie = String(signedIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? ""
    const session = { cookie, "x-csrf-token": JSON.parse(signedIn.body.toString("utf8")).csrf_token }
    const ctx: Ctx = { codigo, key, liveKey, session }
    for (const [route, { field, run }] of Object.entries(SECRET_CALLS))
      expectUncompressed(route, await run(ctx), field)
  })

  it("outside the contract: an operator's creation and sign-in", async () => {
    const email = `comp-${randomUUID().slice(0, 8)}@switch.test`
    const created = await raw(
      server.url,
      "POST",
      "/admin/v1/operadores",
      { ...BOTH, ...ADMIN },
      {
        email,
        password: "una clave larga de consola",
        rol: "soporte"
      }
    )
    expectUncompressed("POST /admin/v1/operadores", created, "totp_secret")
    const secret = JSON.parse(created.body.toString("utf8")).totp_secret
    const signed = await raw(server.url, "POST", "/admin/v1/operador/sesion", BOTH, {
      email,
      password: "una clave larga de consola",
      codigo: totpCode(secret, totpStep(Date.now()))
    })
    expectUncompressed("POST /admin/v1/operador/sesion", signed, "csrf_token")
  })
})
