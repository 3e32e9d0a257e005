// The Promise entry from ESM, installed from its tarball with no workspace around it.
import assert from "node:assert/strict"
import { ConflictError, errorFromResponse, Switch } from "@switch/sdk"

const sw = new Switch({ key: "demo:sk_test_smoke", baseUrl: "http://127.0.0.1:9", maxRetries: 0 })
assert.equal(sw.mode, "test")

const secret = "whsec_smoke"
const payload = JSON.stringify({
  id: "evt_1",
  evento: "link.pagado",
  creado_en: "2026-01-01T00:00:00Z",
  data: {}
})
const event = await Switch.webhooks.verify(
  payload,
  await Switch.webhooks.signatureHeaders({ payload, secret }),
  secret
)
assert.equal(event.evento, "link.pagado")

const error = errorFromResponse(409, { error: "no_cancelable", estado: "pagado" }, {})
assert.ok(error instanceof ConflictError)
assert.equal(error.code, "no_cancelable")
assert.match(error.message, /no se puede cancelar \(no_cancelable, HTTP 409\)/)

await assert.rejects(sw.config.get(), (e) => e.type === "ConnectionError")
console.log("esm ok")
