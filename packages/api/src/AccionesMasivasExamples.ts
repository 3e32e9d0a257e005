/** The examples of the portal's bulk actions (AccionesMasivas.ts), spread into Examples.ts. */
const accion = {
  id: "7d3f1a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
  accion: "cancelar",
  estado: "terminada",
  filtros: { estado: "pendiente", origen: "panel" },
  total: 120,
  procesados: 120,
  hechos: 117,
  omitidos: { pagado: 2, cobrando: 1 },
  archivo: null,
  created_at: "2026-11-25T18:20:00.000Z",
  terminada_at: "2026-11-25T18:20:02.512Z"
} as const

export const accionesMasivasExamples = {
  "accionesMasivas.crear": {
    request: { accion: "cancelar", filtros: { estado: "pendiente", origen: "panel" } },
    response: { ...accion, estado: "en_cola", procesados: 0, hechos: 0, omitidos: {}, terminada_at: null },
    status: 202
  },
  "accionesMasivas.get": { response: accion, params: { id: accion.id } },
  "accionesMasivas.archivo": {
    response: "\ufeffid,estado,monto,concepto,origen,created_at,paid_at\n",
    params: { id: accion.id }
  }
}
