/**
 * The request and response examples `/openapi.json` and `/docs` show for every operation, keyed
 * by operation id. Taken from a real run of the server (a test merchant, the sandbox bank), with
 * keys and secrets replaced; `test/openapi.test.ts` in apps/server checks each one against its
 * schema, so an example that drifts from the contract fails there.
 */
import { accionesMasivasExamples } from "./AccionesMasivasExamples.js"
import { cuentasAprobadasExamples } from "./CuentasAprobadasExamples.js"
import { equipoExamples } from "./EquipoExamples.js"
import { miPaginaExamples } from "./MiPaginaExamples.js"
import { dolaresExamples, propinasExamples, reembolsosExamples } from "./ReembolsosExamples.js"

/** One operation's examples: its body, its parameters, and its main answer (`status`, default 200). */
export interface OperationExamples {
  readonly request?: unknown
  readonly params?: Readonly<Record<string, string>>
  readonly response: unknown
  readonly status?: number
}

export const operationExamples: Readonly<Record<string, OperationExamples>> = {
  ...equipoExamples,
  ...miPaginaExamples,
  ...accionesMasivasExamples,
  ...reembolsosExamples,
  ...dolaresExamples,
  ...propinasExamples,
  "resumenDiario.get": { response: { resumen_diario: false } },
  "resumenDiario.put": { request: { resumen_diario: true }, response: { resumen_diario: true } },
  ...cuentasAprobadasExamples,
  "registro.registrar": {
    request: {
      codigo: "panaderia-ana",
      nombre: "Panadería Ana",
      identificacion: "J-07013380-5",
      email: "ana@panaderia.com.ve",
      tipo: "empresa"
    },
    response: {
      codigo: "panaderia-ana",
      nombre: "Panadería Ana",
      estado: "pendiente",
      kyc_tier: 0,
      mode: "test",
      api_key: "sk_test_3pQ8rT2vW9xY4zA6bC1dE7fG5hJ0kL2m"
    },
    status: 201
  },
  "links.create": {
    request: {
      monto: 150.5,
      concepto: "Torta de chocolate",
      expira_horas: 24,
      success_url: "https://panaderia.com.ve/gracias",
      metadata: {
        pedido: "A-1042"
      },
      idempotency_key: "pedido-A-1042"
    },
    response: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      url: "https://pagos.switch.com.ve/l/41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      wa_deeplink:
        "https://wa.me/?text=Torta%20de%20chocolate%20%C2%B7%20Bs%20150%2C50%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2F41a95a5c-1c5b-4e85-a2a8-06d5747cdccf%3Forigen%3Dwhatsapp",
      qr_png: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAQ4AAAEOAQAAAABQysQI...",
      comercio: "panaderia-ana",
      monto: 150.5,
      moneda: "VES",
      concepto: "Torta de chocolate",
      estado: "pendiente",
      expires_at: "2026-11-26T17:58:04.863Z",
      success_url: "https://panaderia.com.ve/gracias",
      failure_url: null,
      metadata: {
        pedido: "A-1042"
      },
      mode: "test",
      txn_id: null,
      created_at: "2026-11-25T17:58:04.863Z",
      paid_at: null,
      propina: 0,
      total: 150.5,
      pagador: {
        alta_cliente: false
      },
      codigo_verificacion: null,
      origen: "api"
    },
    status: 201
  },
  "links.simulate": {
    request: {
      resultado: "pagado"
    },
    response: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      estado: "pagado",
      resultado: "pagado",
      simulado: true
    },
    params: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"
    }
  },
  "links.get": {
    response: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      url: "https://pagos.switch.com.ve/l/41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      wa_deeplink:
        "https://wa.me/?text=Torta%20de%20chocolate%20%C2%B7%20Bs%20150%2C50%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2F41a95a5c-1c5b-4e85-a2a8-06d5747cdccf%3Forigen%3Dwhatsapp",
      qr_png: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAQ4AAAEOAQAAAABQysQI...",
      comercio: "panaderia-ana",
      monto: 150.5,
      moneda: "VES",
      concepto: "Torta de chocolate",
      estado: "pagado",
      expires_at: "2026-11-26T17:58:04.863Z",
      success_url: "https://panaderia.com.ve/gracias",
      failure_url: null,
      metadata: {
        pedido: "A-1042"
      },
      mode: "test",
      txn_id: "e1b38077-e62f-43f7-8313-261e353fe600",
      created_at: "2026-11-25T17:58:04.863Z",
      paid_at: "2026-11-25T17:58:04.875Z",
      propina: 0,
      total: 150.5,
      pagador: {
        alta_cliente: false
      },
      codigo_verificacion: "SW-YHD5J-7MYQF",
      origen: "api"
    },
    params: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"
    }
  },
  "links.total": {
    response: { total: 1234 }
  },
  "links.list": {
    response: [
      {
        id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
        url: "https://pagos.switch.com.ve/l/41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
        wa_deeplink:
          "https://wa.me/?text=Torta%20de%20chocolate%20%C2%B7%20Bs%20150%2C50%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2F41a95a5c-1c5b-4e85-a2a8-06d5747cdccf%3Forigen%3Dwhatsapp",
        qr_png: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAQ4AAAEOAQAAAABQysQI...",
        comercio: "panaderia-ana",
        monto: 150.5,
        moneda: "VES",
        concepto: "Torta de chocolate",
        estado: "pagado",
        expires_at: "2026-11-26T17:58:04.863Z",
        success_url: "https://panaderia.com.ve/gracias",
        failure_url: null,
        metadata: {
          pedido: "A-1042"
        },
        mode: "test",
        txn_id: "e1b38077-e62f-43f7-8313-261e353fe600",
        created_at: "2026-11-25T17:58:04.863Z",
        paid_at: "2026-11-25T17:58:04.875Z",
        propina: 0,
        total: 150.5,
        pagador: {
          alta_cliente: false
        },
        codigo_verificacion: "SW-YHD5J-7MYQF",
        origen: "api"
      }
    ],
    params: {
      estado: "pagado",
      limit: "1"
    }
  },
  "links.cancel": {
    response: {
      id: "20751c6f-52ad-4b68-a6a9-69c23db1d611",
      estado: "cancelado"
    },
    params: {
      id: "20751c6f-52ad-4b68-a6a9-69c23db1d611"
    }
  },
  "lotes.create": {
    request: {
      nombre: "Mensualidades marzo",
      idempotency_key: "lote-2026-03",
      expira_horas: 72,
      items: [
        {
          monto: 35,
          concepto: "Mensualidad marzo",
          referencia_externa: "alumno-17"
        }
      ]
    },
    response: {
      id: "e0498e83-6698-4a65-9677-448da72ecf48",
      nombre: "Mensualidades marzo",
      idempotency_key: "lote-2026-03",
      mode: "test",
      expires_at: "2026-11-28T17:58:04.985Z",
      created_at: "2026-11-25T17:58:04.985Z",
      resumen: {
        por_estado: {
          pendiente: 1,
          cobrando: 0,
          procesando: 0,
          revision: 0,
          pagado: 0,
          expirado: 0,
          cancelado: 0
        },
        monto_total: 35,
        monto_pagado: 0,
        pagados: 0,
        abiertos: 1,
        completo: false
      },
      por_estado: {
        pendiente: 1,
        cobrando: 0,
        procesando: 0,
        revision: 0,
        pagado: 0,
        expirado: 0,
        cancelado: 0
      },
      monto_total: 35,
      monto_pagado: 0,
      pagados: 0,
      abiertos: 1,
      completo: false,
      items: [
        {
          link_id: "ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
          url: "https://pagos.switch.com.ve/l/ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
          wa_deeplink:
            "https://wa.me/?text=Mensualidad%20marzo%20%C2%B7%20Bs%2035%2C00%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2Fce9be2a7-e9ee-4868-bfaf-fbb964130fae%3Forigen%3Dwhatsapp",
          estado: "pendiente",
          monto: 35,
          concepto: "Mensualidad marzo",
          referencia_externa: "alumno-17",
          cliente: null,
          idempotency_key: "lote:e0498e83-6698-4a65-9677-448da72ecf48:0"
        }
      ]
    },
    status: 201
  },
  "lotes.list": {
    response: [
      {
        id: "e0498e83-6698-4a65-9677-448da72ecf48",
        nombre: "Mensualidades marzo",
        idempotency_key: "lote-2026-03",
        mode: "test",
        expires_at: "2026-11-28T17:58:04.985Z",
        created_at: "2026-11-25T17:58:04.985Z",
        resumen: {
          por_estado: {
            pendiente: 1,
            cobrando: 0,
            procesando: 0,
            revision: 0,
            pagado: 0,
            expirado: 0,
            cancelado: 0
          },
          monto_total: 35,
          monto_pagado: 0,
          pagados: 0,
          abiertos: 1,
          completo: false
        },
        por_estado: {
          pendiente: 1,
          cobrando: 0,
          procesando: 0,
          revision: 0,
          pagado: 0,
          expirado: 0,
          cancelado: 0
        },
        monto_total: 35,
        monto_pagado: 0,
        pagados: 0,
        abiertos: 1,
        completo: false
      }
    ],
    params: {
      limit: "1"
    }
  },
  "lotes.get": {
    response: {
      id: "e0498e83-6698-4a65-9677-448da72ecf48",
      nombre: "Mensualidades marzo",
      idempotency_key: "lote-2026-03",
      mode: "test",
      expires_at: "2026-11-28T17:58:04.985Z",
      created_at: "2026-11-25T17:58:04.985Z",
      resumen: {
        por_estado: {
          pendiente: 1,
          cobrando: 0,
          procesando: 0,
          revision: 0,
          pagado: 0,
          expirado: 0,
          cancelado: 0
        },
        monto_total: 35,
        monto_pagado: 0,
        pagados: 0,
        abiertos: 1,
        completo: false
      },
      por_estado: {
        pendiente: 1,
        cobrando: 0,
        procesando: 0,
        revision: 0,
        pagado: 0,
        expirado: 0,
        cancelado: 0
      },
      monto_total: 35,
      monto_pagado: 0,
      pagados: 0,
      abiertos: 1,
      completo: false,
      items: [
        {
          link_id: "ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
          url: "https://pagos.switch.com.ve/l/ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
          wa_deeplink:
            "https://wa.me/?text=Mensualidad%20marzo%20%C2%B7%20Bs%2035%2C00%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2Fce9be2a7-e9ee-4868-bfaf-fbb964130fae%3Forigen%3Dwhatsapp",
          estado: "pendiente",
          monto: 35,
          concepto: "Mensualidad marzo",
          referencia_externa: "alumno-17",
          cliente: null,
          idempotency_key: "lote:e0498e83-6698-4a65-9677-448da72ecf48:0"
        }
      ]
    },
    params: {
      id: "e0498e83-6698-4a65-9677-448da72ecf48"
    }
  },
  "lotes.cancel": {
    response: {
      cancelados: 1,
      no_cancelables: 0,
      lote: {
        id: "e0498e83-6698-4a65-9677-448da72ecf48",
        nombre: "Mensualidades marzo",
        idempotency_key: "lote-2026-03",
        mode: "test",
        expires_at: "2026-11-28T17:58:04.985Z",
        created_at: "2026-11-25T17:58:04.985Z",
        resumen: {
          por_estado: {
            pendiente: 0,
            cobrando: 0,
            procesando: 0,
            revision: 0,
            pagado: 0,
            expirado: 0,
            cancelado: 1
          },
          monto_total: 35,
          monto_pagado: 0,
          pagados: 0,
          abiertos: 0,
          completo: true
        },
        por_estado: {
          pendiente: 0,
          cobrando: 0,
          procesando: 0,
          revision: 0,
          pagado: 0,
          expirado: 0,
          cancelado: 1
        },
        monto_total: 35,
        monto_pagado: 0,
        pagados: 0,
        abiertos: 0,
        completo: true,
        items: [
          {
            link_id: "ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
            url: "https://pagos.switch.com.ve/l/ce9be2a7-e9ee-4868-bfaf-fbb964130fae",
            wa_deeplink:
              "https://wa.me/?text=Mensualidad%20marzo%20%C2%B7%20Bs%2035%2C00%0APaga%20aqu%C3%AD%3A%20https%3A%2F%2Fpagos.switch.com.ve%2Fl%2Fce9be2a7-e9ee-4868-bfaf-fbb964130fae%3Forigen%3Dwhatsapp",
            estado: "cancelado",
            monto: 35,
            concepto: "Mensualidad marzo",
            referencia_externa: "alumno-17",
            cliente: null,
            idempotency_key: "lote:e0498e83-6698-4a65-9677-448da72ecf48:0"
          }
        ]
      }
    },
    params: {
      id: "e0498e83-6698-4a65-9677-448da72ecf48"
    }
  },
  "recibos.verificar": {
    response: {
      valido: true,
      estado: "pagado",
      codigo: "SW-YHD5J-7MYQF",
      monto: 150.5,
      moneda: "VES",
      comercio: "Panadería Ana",
      fecha_hora: "2026-11-25T17:58:04.875Z",
      fecha_hora_caracas: "25/11/2026 01:58:04 p. m.",
      referencia_bancaria: null,
      prueba: true,
      mensaje: "Comprobante auténtico de un pago de PRUEBA: no movió dinero.",
      concepto: "Torta de chocolate",
      referencia_externa: null,
      verificaciones: 1,
      primera_verificacion: "2026-11-25T17:58:05.024Z",
      primera_verificacion_caracas: "25/11/2026 01:58:05 p. m."
    },
    params: {
      codigo: "SW-YHD5J-7MYQF"
    }
  },
  "transacciones.total": {
    response: { total: 305 }
  },
  "transacciones.list": {
    response: [
      {
        id: "e1b38077-e62f-43f7-8313-261e353fe600",
        operacion: "cobro",
        estado: "LIQUIDADA",
        monto: 150.5,
        propina: 0,
        total: 150.5,
        moneda: "VES",
        mode: "test",
        link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
        referencia_banco: "SIMULADO",
        codigo_verificacion: "SW-YHD5J-7MYQF",
        motivo_rechazo: null,
        created_at: "2026-11-25T17:58:04.875Z",
        liquidada_at: "2026-11-25T17:58:04.875Z"
      }
    ],
    params: {
      limit: "1"
    }
  },
  "transacciones.exportar": {
    response:
      "id,fecha,fecha_caracas,operacion,estado,monto,propina,total,moneda,mode,link_id,referencia_banco,codigo_verificacion,motivo_rechazo,liquidada_at\r\n" +
      "e1b38077-e62f-43f7-8313-261e353fe600,2026-11-25T17:58:04.875Z,25/11/2026 01:58 p. m.,cobro,LIQUIDADA,150.50,0.00,150.50,VES,test,41a95a5c-1c5b-4e85-a2a8-06d5747cdccf,SIMULADO,SW-YHD5J-7MYQF,,2026-11-25T17:58:04.875Z\r\n",
    params: {
      estado: "LIQUIDADA",
      desde: "2026-11-01"
    }
  },
  "liquidaciones.total": {
    response: { total: 12 }
  },
  "liquidaciones.list": {
    response: [
      {
        id: "8c0d6a3e-5f0b-4a49-9d8e-2b1f3c4d5e6f",
        link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
        concepto: "Torta de chocolate",
        cobrado: 150.5,
        neto: 149,
        estado: "LIQUIDADA",
        referencia_banco: "SIMULADO",
        mode: "test",
        created_at: "2026-11-25T17:58:04.875Z",
        liquidada_at: "2026-11-25T17:58:04.875Z",
        simulada: true
      }
    ],
    params: {
      limit: "1"
    }
  },
  "resumen.get": {
    response: {
      mode: "test",
      hoy: { dia: "2026-11-25", cobrado: 1385.06, pagos: 2 },
      semana: [
        { dia: "2026-11-19", cobrado: 0, pagos: 0 },
        { dia: "2026-11-20", cobrado: 250, pagos: 1 },
        { dia: "2026-11-21", cobrado: 0, pagos: 0 },
        { dia: "2026-11-22", cobrado: 80.5, pagos: 1 },
        { dia: "2026-11-23", cobrado: 0, pagos: 0 },
        { dia: "2026-11-24", cobrado: 600, pagos: 3 },
        { dia: "2026-11-25", cobrado: 1385.06, pagos: 2 }
      ],
      links_abiertos: 4,
      pagos_recientes: [
        {
          txn_id: "e1b38077-e62f-43f7-8313-261e353fe600",
          link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
          concepto: "Torta de chocolate",
          total: 150.5,
          created_at: "2026-11-25T17:58:04.875Z"
        }
      ],
      liquidaciones: { LIQUIDADA: { cantidad: 2, neto: 1371.21 } }
    }
  },
  "llaves.create": {
    request: {
      label: "Tienda en línea"
    },
    response: {
      id: "45aa105f-b24a-4f22-bdcf-81e753becf1b",
      label: "Tienda en línea",
      mode: "test",
      api_key: "sk_test_3pQ8rT2vW9xY4zA6bC1dE7fG5hJ0kL2m"
    },
    status: 201
  },
  "llaves.list": {
    response: [
      {
        id: "45aa105f-b24a-4f22-bdcf-81e753becf1b",
        label: "Tienda en línea",
        mode: "test",
        ultimos4: "h1Pm",
        created_at: "2026-11-25T17:58:05.053Z",
        revoked_at: null,
        expira_at: null
      }
    ]
  },
  "sesionPublica.iniciar": {
    request: { email: "ana@panaderia.com.ve", password: "una-clave-larga-1" },
    response: {
      usuario: {
        id: "5b1f0c2e-7d4a-4f0e-9a51-2c8d6e3f4a10",
        email: "ana@panaderia.com.ve",
        rol: "propietario"
      },
      comercio: { codigo: "panaderia-ana", nombre: "Panadería Ana", estado: "pendiente" },
      mode: "test",
      aprobado: false,
      totp: false,
      csrf_token: "Jx3v9QeL2mN7pR4tW8yZ1aC5dF0gH6kB3nS9uV2xY7q",
      expira_en: "2026-11-26T05:58:04.863Z"
    }
  },
  "sesion.actual": {
    response: {
      usuario: {
        id: "5b1f0c2e-7d4a-4f0e-9a51-2c8d6e3f4a10",
        email: "ana@panaderia.com.ve",
        rol: "propietario"
      },
      comercio: { codigo: "panaderia-ana", nombre: "Panadería Ana", estado: "pendiente" },
      mode: "test",
      aprobado: false,
      totp: false,
      csrf_token: "Jx3v9QeL2mN7pR4tW8yZ1aC5dF0gH6kB3nS9uV2xY7q",
      expira_en: "2026-11-26T05:58:04.863Z"
    }
  },
  "sesion.cerrar": {
    response: { ok: true, cerradas: 1 }
  },
  "sesion.cerrarTodas": {
    response: { ok: true, cerradas: 3 }
  },
  "sesion.modo": {
    request: { mode: "test" },
    response: {
      usuario: {
        id: "5b1f0c2e-7d4a-4f0e-9a51-2c8d6e3f4a10",
        email: "ana@panaderia.com.ve",
        rol: "propietario"
      },
      comercio: { codigo: "panaderia-ana", nombre: "Panadería Ana", estado: "pendiente" },
      mode: "test",
      aprobado: false,
      totp: false,
      csrf_token: "Jx3v9QeL2mN7pR4tW8yZ1aC5dF0gH6kB3nS9uV2xY7q",
      expira_en: "2026-11-26T05:58:04.863Z"
    }
  },
  "llaves.roll": {
    request: { solapamiento_horas: 24 },
    response: {
      id: "9b1d4e7a-3c2f-4a8b-9e6d-1f0a2b3c4d5e",
      label: "Tienda en línea",
      mode: "test",
      api_key: "sk_test_7Hk2mN9pQ4rS8tV1wX5yZ3aB6cD0eF2g",
      anterior: {
        id: "45aa105f-b24a-4f22-bdcf-81e753becf1b",
        expira_at: "2026-11-26T17:58:05.053Z"
      }
    },
    params: { id: "45aa105f-b24a-4f22-bdcf-81e753becf1b" },
    status: 201
  },
  "llaves.revoke": {
    response: {
      id: "0f5a2c0b-fb70-4c2f-adf6-632442e24c57",
      revocada: true
    },
    params: {
      id: "0f5a2c0b-fb70-4c2f-adf6-632442e24c57"
    }
  },
  "config.get": {
    response: {
      comercio: "panaderia-ana",
      nombre: "Panadería Ana",
      tipo: "empresa",
      estado: "activo",
      kyc_tier: 1,
      mode: "test",
      comision_pct: 1,
      comision_acordada: false,
      igtf_pct: 3,
      igtf_aplica: "solo a cobros en divisas; los cobros en bolívares no pagan IGTF",
      frecuencia_liquidacion: "diaria",
      propina_max_pct: 0,
      pagar_habilitado: false,
      split_habilitado: false,
      tarjeta_habilitada: false
    }
  },
  "config.put": {
    request: {
      comision_pct: 0
    },
    response: {
      error: "prohibido",
      detail: "La configuración de dinero solo la edita el administrador."
    },
    status: 403
  },
  "clientes.list": {
    response: [
      {
        id: "3b8f1d2e-4c5a-4e6b-9d7c-8e9f0a1b2c3d",
        acepta_novedades: true,
        prueba: false,
        mode: "live",
        created_at: "2026-03-02T15:04:05.000Z"
      }
    ],
    params: {
      limit: "1"
    }
  },
  "webhooks.create": {
    request: {
      url: "https://panaderia.com.ve/webhooks/switch",
      eventos: ["link.pagado", "link.acreditado"]
    },
    response: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
      url: "https://panaderia.com.ve/webhooks/switch",
      eventos: ["link.pagado", "link.acreditado"],
      estado: "activo",
      created_at: "2026-11-25T17:58:05.124Z",
      updated_at: "2026-11-25T17:58:05.124Z",
      secret: "whsec_q3Zx0b8Yt9mK2vW4nL6pR1sT5uV7wX9yA2bC4dE6fG8="
    },
    status: 201
  },
  "webhooks.list": {
    response: [
      {
        id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
        url: "https://panaderia.com.ve/webhooks/switch",
        eventos: ["link.pagado", "link.acreditado"],
        estado: "activo",
        created_at: "2026-11-25T17:58:05.124Z",
        updated_at: "2026-11-25T17:58:05.124Z"
      }
    ]
  },
  "webhooks.get": {
    response: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
      url: "https://panaderia.com.ve/webhooks/switch",
      eventos: ["link.pagado", "link.acreditado"],
      estado: "activo",
      created_at: "2026-11-25T17:58:05.124Z",
      updated_at: "2026-11-25T17:58:05.124Z"
    },
    params: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23"
    }
  },
  "webhooks.update": {
    request: {
      eventos: ["*"]
    },
    response: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
      url: "https://panaderia.com.ve/webhooks/switch",
      eventos: ["*"],
      estado: "activo",
      created_at: "2026-11-25T17:58:05.124Z",
      updated_at: "2026-11-25T17:58:05.157Z"
    },
    params: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23"
    }
  },
  "webhooks.probar": {
    response: {
      id: "d8925440-cac4-4263-844a-f39c06de4300",
      webhook_id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
      evento_id: "evt_d593922e-71a7-4146-bdd8-66512307549c",
      evento: "webhook.test",
      mode: "test",
      estado: "fallido",
      intentos: 1,
      proximo_intento: null,
      codigo_http: null,
      error: "no se pudo conectar (ENOTFOUND)",
      created_at: "2026-11-25T17:58:05.167Z",
      entregado_at: null
    },
    params: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23"
    }
  },
  "webhooks.deliveries": {
    response: [
      {
        id: "d8925440-cac4-4263-844a-f39c06de4300",
        webhook_id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23",
        evento_id: "evt_d593922e-71a7-4146-bdd8-66512307549c",
        evento: "webhook.test",
        mode: "test",
        estado: "fallido",
        intentos: 1,
        proximo_intento: null,
        codigo_http: null,
        error: "no se pudo conectar (ENOTFOUND)",
        created_at: "2026-11-25T17:58:05.167Z",
        entregado_at: null
      }
    ],
    params: {
      id: "5270fc15-9c50-4c70-af1e-6eb1f3fccd23"
    }
  },
  "webhooks.reenviar": {
    response: [
      {
        id: "7d1f0c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f",
        webhook_id: "06a419e5-53c3-4dc1-b20e-ea1968778b5a",
        evento_id: "evt_69a0c9b4-fa95-4f47-807a-1d6907506714",
        evento: "link.pagado",
        mode: "test",
        estado: "pendiente",
        intentos: 1,
        proximo_intento: "2026-11-25T18:02:11.402Z",
        codigo_http: 200,
        error: null,
        created_at: "2026-11-25T17:58:04.912Z",
        entregado_at: "2026-11-25T17:58:05.101Z"
      }
    ],
    params: {
      id: "evt_69a0c9b4-fa95-4f47-807a-1d6907506714"
    }
  },
  "webhooks.remove": {
    response: {
      ok: true,
      id: "06a419e5-53c3-4dc1-b20e-ea1968778b5a"
    },
    params: {
      id: "06a419e5-53c3-4dc1-b20e-ea1968778b5a"
    }
  },
  "historial.link": {
    params: {
      id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf"
    },
    response: {
      link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
      entradas: [
        {
          tipo: "creado",
          fecha: "2026-11-25T17:58:04.863Z",
          estado: "pendiente",
          detalle: null,
          monto: null,
          evento_id: null,
          evento: null,
          entregas: []
        },
        {
          tipo: "intento",
          fecha: "2026-11-25T18:02:11.402Z",
          estado: "RECHAZADA",
          detalle: "Fondos insuficientes",
          monto: null,
          evento_id: null,
          evento: null,
          entregas: []
        },
        {
          tipo: "pagado",
          fecha: "2026-11-25T18:03:40.118Z",
          estado: "pagado",
          detalle: null,
          monto: null,
          evento_id: null,
          evento: null,
          entregas: []
        },
        {
          tipo: "aviso",
          fecha: "2026-11-25T18:03:40.118Z",
          estado: null,
          detalle: null,
          monto: null,
          evento_id: "evt_69a0c9b4-fa95-4f47-807a-1d6907506714",
          evento: "link.pagado",
          entregas: [
            {
              id: "5b7c2e1a-9d3f-4a61-8c0e-2f4b6d8a1c3e",
              webhook_id: "06a419e5-53c3-4dc1-b20e-ea1968778b5a",
              url: "https://panaderia.com.ve/webhooks/switch",
              estado: "entregado",
              intentos: 1,
              proximo_intento: null,
              codigo_http: 200,
              error: null
            }
          ]
        },
        {
          tipo: "acreditado",
          fecha: "2026-11-25T18:03:40.131Z",
          estado: null,
          detalle: null,
          monto: 147.49,
          evento_id: null,
          evento: null,
          entregas: []
        }
      ]
    }
  },
  "eventos.list": {
    response: [
      {
        id: "evt_69a0c9b4-fa95-4f47-807a-1d6907506714",
        evento: "link.pagado",
        creado_en: "2026-11-25T17:58:04.875Z",
        data: {
          mode: "test",
          monto: 150.5,
          total: 150.5,
          txn_id: "e1b38077-e62f-43f7-8313-261e353fe600",
          link_id: "41a95a5c-1c5b-4e85-a2a8-06d5747cdccf",
          pagador: {
            alta_cliente: false
          },
          propina: 0,
          referencia: "SIMULADO",
          codigo_verificacion: "SW-YHD5J-7MYQF"
        }
      }
    ],
    params: {
      limit: "2"
    }
  },
  "direct.cobrarToken": {
    request: {
      idempotency_key: "7c1e2a4b-5d6f-4a8b-9c0d-1e2f3a4b5c6d",
      monto: {
        valor: 75.25,
        moneda: "VES"
      },
      concepto: "Pedido 881",
      canal: "whatsapp",
      cobrador: {
        tipo: "telefono",
        valor: "04141234567",
        banco: "0105",
        identificacion: "J-07013380-5",
        tipo_doc: "J",
        nombre: "Panaderia Ana"
      },
      pagador: {
        tipo: "telefono",
        valor: "04241234567",
        banco: "0102",
        identificacion: "12345678",
        tipo_doc: "V",
        nombre: "Maria Perez"
      }
    },
    response: {
      id: "96ba35c9-309c-4ced-b3d7-0ff0f707ed55",
      estado: "ACEPTADA",
      referencia_banco: null,
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.cobrar": {
    request: {
      idempotency_key: "7c1e2a4b-5d6f-4a8b-9c0d-1e2f3a4b5c6d",
      monto: {
        valor: 75.25,
        moneda: "VES"
      },
      concepto: "Pedido 881",
      canal: "whatsapp",
      cobrador: {
        tipo: "telefono",
        valor: "04141234567",
        banco: "0105",
        identificacion: "J-07013380-5",
        tipo_doc: "J",
        nombre: "Panaderia Ana"
      },
      pagador: {
        tipo: "telefono",
        valor: "04241234567",
        banco: "0102",
        identificacion: "12345678",
        tipo_doc: "V",
        nombre: "Maria Perez"
      },
      otp: "12345678"
    },
    response: {
      id: "96ba35c9-309c-4ced-b3d7-0ff0f707ed55",
      estado: "LIQUIDADA",
      referencia_banco: "PR810426201",
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.consultar": {
    request: {
      id: "96ba35c9-309c-4ced-b3d7-0ff0f707ed55"
    },
    response: {
      id: "96ba35c9-309c-4ced-b3d7-0ff0f707ed55",
      estado: "LIQUIDADA",
      referencia_banco: "PR810426201",
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.reintegro": {
    request: {
      id: "96ba35c9-309c-4ced-b3d7-0ff0f707ed55",
      monto: 10,
      motivo: "Producto agotado"
    },
    response: {
      id: "0b0a1b0c-5d95-498c-b948-66cb68f87e2a",
      estado: "LIQUIDADA",
      referencia_banco: "PR180376162",
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.reverso": {
    request: {
      idempotency_key: "9e3a4c6d-7f8b-4c0d-9e2f-3a4b5c6d7e8f",
      id: "b1cc746b-99fa-4752-aa69-3ddd5d84a168",
      motivo: "Cobro duplicado"
    },
    response: {
      id: "cafc5daf-0e93-42b3-a061-88a244b60cf2",
      estado: "LIQUIDADA",
      referencia_banco: "PR428534102",
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.pagar": {
    request: {
      idempotency_key: "0f4b5d7e-8a9c-4d1e-8f3a-4b5c6d7e8f9a",
      monto: {
        valor: 120,
        moneda: "VES"
      },
      concepto: "Pago a proveedor",
      ordenante: {
        tipo: "cuenta",
        valor: "01050194651194079423",
        banco: "0105",
        identificacion: "J-07013380-5",
        tipo_doc: "J",
        nombre: "Panaderia Ana"
      },
      beneficiario: {
        tipo: "telefono",
        valor: "04161234567",
        banco: "0134",
        identificacion: "9876543",
        tipo_doc: "V",
        nombre: "Jose Rivas"
      },
      via: "pago_movil",
      proposito: "proveedor"
    },
    response: {
      id: "d99cc42a-116d-4eff-ae82-df105e790654",
      estado: "LIQUIDADA",
      referencia_banco: "PR971004781",
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1
    }
  },
  "direct.dispersiones": {
    request: {
      idempotency_key: "1a5c6e8f-9b0d-4e2f-9a4b-5c6d7e8f9a0b",
      concepto: "Nómina quincena",
      ordenante: {
        tipo: "cuenta",
        valor: "01050194651194079423",
        banco: "0105",
        identificacion: "J-07013380-5",
        tipo_doc: "J",
        nombre: "Panaderia Ana"
      },
      pagos: [
        {
          beneficiario: {
            tipo: "telefono",
            valor: "04121234567",
            banco: "0102",
            identificacion: "11222333",
            tipo_doc: "V",
            nombre: "Luisa Gomez"
          },
          monto: {
            valor: 300
          },
          concepto: "Quincena",
          proposito: "nomina"
        }
      ]
    },
    response: {
      idempotency_key: "1a5c6e8f-9b0d-4e2f-9a4b-5c6d7e8f9a0b",
      resultados: [
        {
          id: "67c3b185-fd96-4500-9835-6cdbbc00bae6",
          estado: "LIQUIDADA",
          referencia_banco: "PR773711720",
          endtoend: null,
          motivo_rechazo: null,
          intentos: 1
        }
      ]
    }
  },
  "logs.list": {
    response: [
      {
        id: "0668b6a4-35b9-4e9e-8774-76aad38355ad",
        created_at: "2026-11-25T17:58:05.477Z",
        method: "POST",
        path: "/switch/v1/dispersiones",
        status: 200,
        duration_ms: 27,
        request_id: "c3019f67-deb5-4a7e-a9de-7b97b40e5479"
      }
    ],
    params: {
      limit: "1"
    }
  },
  "eventos.stream": {
    response:
      'id: 42\nevent: link.pagado\ndata: {"id":"evt_69a0c9b4-fa95-4f47-807a-1d6907506714","evento":"link.pagado","creado_en":"2026-11-25T17:58:04.875Z","data":{"mode":"test","monto":150.5,"total":150.5,"txn_id":"e1b38077-e62f-43f7-8313-261e353fe600","link_id":"41a95a5c-1c5b-4e85-a2a8-06d5747cdccf","pagador":{"alta_cliente":false},"propina":0,"referencia":"SIMULADO","codigo_verificacion":"SW-YHD5J-7MYQF"}}\n\n'
  },
  "eventos.cambios": {
    response:
      'id: 42\nevent: cambio\ndata: {"evento":"link.pagado","link_id":"41a95a5c-1c5b-4e85-a2a8-06d5747cdccf","txn_id":"e1b38077-e62f-43f7-8313-261e353fe600"}\n\n'
  },
  "flowsSetup.config": {
    request: {
      cuenta: {
        tipo: "cuenta",
        valor: "01050194651194079423",
        banco: "0105",
        identificacion: "J-07013380-5",
        tipo_doc: "J",
        nombre: "Panaderia Ana"
      },
      app_secret: "2f6c1a9e8b7d4c3a5e0f1b2c3d4e5f60",
      concepto: "Pedido por WhatsApp",
      monto_firmado: true,
      mode: "live"
    },
    response: {
      flow_id: "6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b",
      flow_secret: "Qm9sw3Zhci1kZS1wcnVlYmEtMjQtYnl0",
      public_key:
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA...\n-----END PUBLIC KEY-----\n",
      monto_secret: "TW9udG8tZmlybWFkby0yNC1ieXRlcy0x",
      endpoint_url: "https://pagos.switch.com.ve/switch/v1/flows/cobro/6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b",
      mode: "live"
    },
    status: 201
  },
  "flowsSetup.definicion": {
    request: {
      flow_id: "6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b"
    },
    response: {
      flow_id: "6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b",
      definicion: {
        version: "6.0",
        data_api_version: "3.0",
        routing_model: {
          DATOS: ["CODIGO"],
          CODIGO: ["EXITO"],
          EXITO: []
        },
        screens: [
          {
            id: "DATOS",
            title: "Pagar"
          }
        ]
      }
    }
  },
  "flows.cobro": {
    request: {
      encrypted_flow_data: "b2ZmZXJ0YSBjaWZyYWRhIGNvbiBBRVMtMTI4LUdDTQ==",
      encrypted_aes_key: "c2VjcmV0byBBRVMgY2lmcmFkbyBjb24gUlNBLU9BRVA=",
      initial_vector: "aXYtZGUtMTYtYnl0ZXM="
    },
    params: {
      flowId: "6a1f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b"
    },
    response: "eyJzY3JlZW4iOiJDT0RJR08iLCJkYXRhIjp7fX0="
  }
}

type Operation = {
  operationId?: string
  parameters?: Array<{ name: string; example?: unknown }>
  requestBody?: { content?: Record<string, { example?: unknown }> }
  responses?: Record<string, { content?: Record<string, { example?: unknown }> }>
}

/** Puts an operation's examples on its body, its parameters and its answer's media types. */
export const withExamples = (operation: Operation): Operation => {
  const examples = operation.operationId === undefined ? undefined : operationExamples[operation.operationId]
  if (examples === undefined) return operation
  for (const parameter of operation.parameters ?? []) {
    const value = examples.params?.[parameter.name]
    if (value !== undefined) parameter.example = value
  }
  if (examples.request !== undefined) {
    for (const media of Object.values(operation.requestBody?.content ?? {})) media.example = examples.request
  }
  const answer = operation.responses?.[String(examples.status ?? 200)]
  for (const media of Object.values(answer?.content ?? {})) media.example = examples.response
  return operation
}
