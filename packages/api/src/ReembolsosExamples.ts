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
      habilitado: true,
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

/** The examples of links priced in dollars (Dolares.ts). */
export const dolaresExamples = {
  "dolares.create": {
    request: { monto_usd: 10, concepto: "Torta de chocolate", expira_horas: 24 },
    response: {
      id: linkId,
      url: `https://pagos.switch.com.ve/l/${linkId}`,
      wa_deeplink: `https://wa.me/?text=Torta%20de%20chocolate%20%C2%B7%20Bs%20365%2C01%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2F${linkId}%3Forigen%3Dwhatsapp`,
      qr_png: `https://pagos.switch.com.ve/l/${linkId}/qr.png`,
      comercio: "panaderia-ana",
      monto: 365.01,
      moneda: "VES",
      concepto: "Torta de chocolate",
      estado: "pendiente",
      expires_at: "2026-11-26T17:58:04.863Z",
      success_url: null,
      failure_url: null,
      metadata: { pedido: "A-1042" },
      mode: "live",
      txn_id: null,
      created_at: "2026-11-25T17:58:04.863Z",
      paid_at: null,
      propina: 0,
      total: 365.01,
      pagador: { alta_cliente: false },
      codigo_verificacion: null,
      origen: "panel"
    },
    status: 201
  },
  "dolares.get": {
    params: { id: linkId },
    response: { link_id: linkId, monto_usd: 10, tasa_bcv: 36.5012, monto: 365.01 }
  }
}

/** The examples of the tips chosen in the portal (Propinas.ts). */
export const propinasExamples = {
  "propinas.get": { response: { acepta: true, max_pct: 15, max_bs: 100000 } },
  "propinas.put": {
    request: { acepta: true, max_pct: 15 },
    response: { acepta: true, max_pct: 15, max_bs: 100000 }
  }
}
