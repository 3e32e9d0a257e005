/**
 * The one settings fixture of the server's tests: what a test server runs with unless the test
 * says otherwise. The harnesses, the cluster's global setup and any test building a server take
 * their settings from here.
 */
import { Option, Redacted } from "effect"
import type { ServerSettings } from "../src/Config.js"

export const testSettings = (overrides: Partial<ServerSettings> = {}): ServerSettings => ({
  environment: "development",
  baseUrl: "http://pagos.test",
  secret: Redacted.make("secreto-de-prueba"),
  adminToken: Option.some(Redacted.make("admin-de-prueba")),
  verificarPorMinuto: 20,
  registrosPorHora: 1000,
  apiPorMinuto: 120,
  housekeepingSeconds: 15,
  webhookAllowPrivate: false,
  webhookBackoffEscala: 1,
  bankUrl: null,
  bankTimeoutMs: 2_000,
  conciliarSegundos: 0.2,
  conciliarAbandonoSegundos: 5,
  cierreBancario: true,
  proxiesConfiables: [],
  tasaMaxHoras: 48,
  metricsToken: Option.none(),
  drenajeSegundos: 0,
  smtpUrl: Option.none(),
  correosDir: null,
  colaDatabaseUrl: Option.none(),
  mcpResource: "http://mcp.test/mcp",
  tasaFuenteUrl: null,
  tasaFuenteMinutos: 60,
  alertasUrl: null,
  alertasSecreto: null,
  alertaColaMinutos: 60,
  alertasRevisarSegundos: 60,
  ...overrides
})
