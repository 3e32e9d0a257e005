/** The examples of a link's refunds from the portal (Reembolsos.ts), spread into Examples.ts. */
const linkId = "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"
const parcial = {
  id: "7e0c3b1a-5d2f-4a8e-b6c9-1f2e3d4c5b6a",
  link_id: linkId,
  monto: 50.25,
  motivo: "Faltó una torta en el pedido",
  estado: "LIQUIDADA",
  en_curso: false,
  motivo_rechazo: null,
  referencia_banco: "000123456789",
  created_at: "2026-11-25T19:12:40.511Z"
} as const

export const reembolsosExamples = {
  "reembolsos.list": {
    params: { id: linkId },
    response: {
      link_id: linkId,
      confirmado: true,
      monto_pagado: 150.5,
      monto_devuelto: 50.25,
      disponible: 100.25,
      data: [parcial]
    }
  },
  "reembolsos.create": {
    params: { id: linkId },
    request: { monto: 50.25, motivo: "Faltó una torta en el pedido", idempotency_key: "reemb-A-1042-1" },
    response: parcial,
    status: 201
  }
}
