/** The examples of the merchant's own payment page's settings (MiPagina.ts), spread into Examples.ts. */
const pagina = {
  activa: true,
  monto_min: 10,
  monto_max: 5000,
  concepto_permitido: true,
  mode: "live",
  url: "https://switch.example/p/panaderia-ana",
  qr_png: "https://switch.example/p/panaderia-ana/qr.png",
  updated_at: "2026-11-25T18:10:42.118Z"
} as const

export const miPaginaExamples = {
  "miPagina.get": { response: pagina },
  "miPagina.guardar": {
    request: { activa: true, monto_min: 10, monto_max: 5000, concepto_permitido: true },
    response: pagina
  }
}
