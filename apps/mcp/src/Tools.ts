/**
 * The tools, each a thin call through @switch/sdk with the caller's own key, so a key sees
 * only its merchant and mode. Nothing here sends, refunds or withdraws money.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { banks, LinkStates, type Switch, SwitchError } from "@switch/sdk"
import { z } from "zod"

const link = z
  .object({
    id: z.string(),
    url: z.string(),
    estado: z.enum(LinkStates),
    monto: z.number(),
    concepto: z.string().nullable(),
    expires_at: z.string().nullable(),
    wa_deeplink: z.string().nullable(),
    qr_png: z.string().nullable().optional(),
    mode: z.enum(["test", "live"]),
    codigo_verificacion: z.string().nullable().optional(),
    paid_at: z.string().nullable().optional()
  })
  .passthrough()

const resultado = z
  .object({
    id: z.string(),
    estado: z.string(),
    referencia_banco: z.string().nullable(),
    endtoend: z.string().nullable(),
    motivo_rechazo: z.string().nullable(),
    intentos: z.number()
  })
  .passthrough()

/**
 * A tool's arguments exactly: an argument the tool does not take is an invalid-params error
 * (as the advertised `additionalProperties: false` says), never dropped without a word, so an
 * assistant asking for a currency or a return URL learns the tool has none.
 */
const strict = <S extends z.ZodRawShape>(shape: S) => z.object(shape).strict()

const ok = <T extends Record<string, unknown>>(value: T): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value
})

/** API errors come back as tool results carrying SPEC's code and detail, never as a protocol error. */
export const toolError = (error: unknown): CallToolResult => {
  if (error instanceof SwitchError) {
    // Without a detail (no answer at all, or an error that carries none) the SDK's message says
    // what happened: "No se pudo conectar con Switch en ...".
    const detail =
      error.detail === undefined || error.detail === null || error.detail === ""
        ? error.message
        : typeof error.detail === "string"
          ? error.detail
          : JSON.stringify(error.detail)
    return {
      isError: true,
      content: [{ type: "text", text: `${error.code ?? "error"} (HTTP ${error.status ?? "?"}): ${detail}` }]
    }
  }
  return {
    isError: true,
    content: [{ type: "text", text: `error_interno: ${String((error as Error)?.message ?? error)}` }]
  }
}

const guarded =
  <A>(run: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await run(args)
    } catch (error) {
      return toolError(error)
    }
  }

const linkView = (l: Record<string, unknown>) => ({
  id: l.id,
  url: l.url,
  estado: l.estado,
  monto: l.monto,
  concepto: l.concepto ?? null,
  expires_at: l.expires_at ?? null,
  wa_deeplink: l.wa_deeplink ?? null,
  qr_png: l.qr_png ?? null,
  mode: l.mode,
  codigo_verificacion: l.codigo_verificacion ?? null,
  paid_at: l.paid_at ?? null
})

/** The OAuth scopes of the MCP sign-in (the API's `OAuth.SCOPES`). */
export const SCOPES = [
  "links:read",
  "links:write",
  "transacciones:read",
  "liquidaciones:read",
  "bancos:read"
] as const

/** The scope an access token needs for each tool; a missing one is `403 insufficient_scope`. */
export const TOOL_SCOPES: Readonly<Record<string, (typeof SCOPES)[number]>> = {
  listar_bancos: "bancos:read",
  consultar_estado: "transacciones:read",
  crear_link_cobro: "links:write",
  listar_links: "links:read",
  ver_link: "links:read",
  cancelar_link: "links:write",
  ver_liquidaciones: "liquidaciones:read"
}

/**
 * Registers every tool on `server`, calling the API as `client`. With `checkKey` (a key caller)
 * the bank list checks the key first; a token was checked by its introspection.
 */
export const registerTools = (
  server: McpServer,
  client: Switch,
  options: { readonly checkKey: boolean } = { checkKey: true }
) => {
  server.registerTool(
    "listar_bancos",
    {
      title: "Listar bancos",
      description:
        "Bancos venezolanos desde los que un pagador puede pagar: código y nombre. / Venezuelan banks payers can pay from: code and name.",
      inputSchema: {},
      outputSchema: { bancos: z.array(z.object({ codigo: z.string(), nombre: z.string() })) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async () => {
      // The list is public, but the key is checked as on every tool: an unknown or revoked key
      // gets SPEC's 401 here too.
      if (options.checkKey) await client.config.get()
      return ok({ bancos: banks.map((b) => ({ codigo: b.codigo, nombre: b.nombre })) })
    })
  )

  server.registerTool(
    "consultar_estado",
    {
      title: "Consultar estado de una transacción",
      description:
        "Estado actualizado de una operación (cobro o pago) por su id. / Current state of an operation (collection or payout) by id.",
      inputSchema: strict({ id: z.string().min(1).max(100).describe("Id de la operación / operation id") }),
      outputSchema: resultado.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) => ok({ ...(await client.operaciones.consultar(id)) }))
  )

  server.registerTool(
    "crear_link_cobro",
    {
      title: "Crear link de cobro",
      description:
        "Crea un link de pago en bolívares que el comercio envía por WhatsApp; no mueve dinero. / Creates a bolivar payment link to share on WhatsApp; moves no money.",
      inputSchema: strict({
        monto: z
          .number()
          .positive()
          .describe("Monto en Bs, hasta 2 decimales / amount in VES, up to 2 decimals"),
        concepto: z.string().min(1).max(140).describe("Concepto, hasta 140 caracteres / concept"),
        expira_horas: z.number().int().min(1).max(720).optional().describe("1 a 720 horas, por defecto 24"),
        metadata: z
          .record(z.string().max(40), z.string().max(200))
          .refine((m) => Object.keys(m).length <= 20, "hasta 20 claves / up to 20 keys")
          .optional(),
        idempotency_key: z.string().min(1).max(64).optional().describe("Repetirla devuelve el mismo link")
      }),
      outputSchema: {
        id: z.string(),
        url: z.string(),
        estado: z.enum(LinkStates),
        expires_at: z.string().nullable(),
        wa_deeplink: z.string().nullable(),
        qr_png: z
          .string()
          .nullable()
          .describe("URL del código QR del link en PNG / URL of the link's QR code as a PNG")
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false
      }
    },
    guarded(async (args: Record<string, unknown>) => {
      const created = (await client.links.create(args as never)) as unknown as Record<string, unknown>
      return ok({
        id: String(created.id),
        url: String(created.url),
        estado: created.estado as string,
        expires_at: (created.expires_at as string | null) ?? null,
        wa_deeplink: (created.wa_deeplink as string | null) ?? null,
        qr_png: (created.qr_png as string | null) ?? null
      })
    })
  )

  server.registerTool(
    "listar_links",
    {
      title: "Listar links",
      description:
        "Links del comercio, del más reciente al más antiguo, con los filtros de GET /links. / The merchant's links, newest first, with GET /links filters.",
      inputSchema: strict({
        estado: z
          .string()
          .max(200)
          .optional()
          .describe("Estados separados por comas / comma-separated states"),
        desde: z.string().max(40).optional(),
        hasta: z.string().max(40).optional(),
        q: z.string().max(80).optional(),
        min: z.number().min(0).optional(),
        max: z.number().min(0).optional(),
        con_propina: z.boolean().optional(),
        origen: z.enum(["api", "panel", "mi_pagina", "boton", "whatsapp"]).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        offset: z.number().int().min(0).optional()
      }),
      outputSchema: { links: z.array(link) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async (args: Record<string, unknown>) => {
      const page = (await client.links.list(args as never)) as unknown as ReadonlyArray<
        Record<string, unknown>
      >
      return ok({ links: page.map(linkView) })
    })
  )

  server.registerTool(
    "ver_link",
    {
      title: "Ver link",
      description: "Un link del comercio por su id. / One of the merchant's links by id.",
      inputSchema: strict({ id: z.string().min(1).max(100) }),
      outputSchema: link.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) =>
      ok(linkView((await client.links.get(id)) as unknown as Record<string, unknown>))
    )
  )

  server.registerTool(
    "cancelar_link",
    {
      title: "Cancelar link",
      description:
        "Cancela un link que sigue pendiente; uno pagado o en proceso no se cancela. / Cancels a still-pending link; paid or in-progress ones cannot be.",
      inputSchema: strict({ id: z.string().min(1).max(100) }),
      outputSchema: { id: z.string(), estado: z.literal("cancelado") },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) => {
      const result = await client.links.cancel(id)
      return ok({ id: result.id, estado: "cancelado" as const })
    })
  )

  server.registerTool(
    "ver_liquidaciones",
    {
      title: "Ver liquidaciones",
      description:
        "Liquidaciones del comercio: lo acreditado a su cuenta. / The merchant's settlements: what was credited to its account.",
      inputSchema: strict({ limit: z.number().int().min(1).max(200).optional() }),
      outputSchema: {
        liquidaciones: z.array(
          z
            .object({ id: z.string(), estado: z.string(), monto: z.number(), created_at: z.string() })
            .passthrough()
        )
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ limit }: { limit?: number | undefined }) => {
      const rows = (await client.transacciones.list({ limit: 200 })) as unknown as ReadonlyArray<
        Record<string, unknown>
      >
      const liquidaciones = rows
        .filter((t) => t.operacion === "liquidacion")
        .slice(0, limit ?? 50)
        .map((t) => ({
          id: String(t.id),
          estado: String(t.estado),
          monto: Number(t.monto),
          created_at: String(t.created_at)
        }))
      return ok({ liquidaciones })
    })
  )
}
