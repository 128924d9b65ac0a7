// The account's settings as its users manage them: API keys, signing brands, the defaults.
import {
  ZAccountSettingsPatchSchema,
  ZApiKeyCreateSchema,
  ZSigningBrandPatchSchema,
  ZSigningBrandWriteSchema,
} from '#shared/schemas/account-settings';
import {
  ZAccountSettingsResponseSchema,
  ZApiKeyCreatedSchema,
  ZApiKeyResponseSchema,
  ZSigningBrandResponseSchema,
} from '#shared/schemas/responses/account-settings';

const brand = {
  id: '5b0e7c1e-3f0a-4c39-9d0c-3b8f6a9e2d41',
  name: 'Acme Legal',
  primary_color: '#0b5cad',
  redirect_url: 'https://acme.example.com/thanks',
  logo_url: 'https://acme.example.com/logo.png',
  palette: { brand: '#0b5cad', on_brand: '#ffffff', brand_text: '#0b5cad' },
  created: '2026-03-01T09:30:00.000Z',
};
const apiKey = {
  id: '0d7a3c55-61f4-4b8e-a0f2-47c1d9e3b6a2',
  name: 'Billing export',
  prefix: 'Xk29Qa',
  user: '9a1f6c2e-4b7d-4e0a-8c3f-1d2e5b6a7c8d',
  created: '2026-03-01T09:30:00.000Z',
  revoked: null,
};

/** Typed where operations.ts lists them (TOperation): a type import back would be a cycle. */
export const SETTINGS_OPERATIONS = [
  {
    route: 'GET /account',
    operationId: 'retrieveAccountSettings',
    tag: 'Account',
    summary: "The account's defaults (language, signing redirect, image paper, reminders)",
    response: { status: 200, schema: ZAccountSettingsResponseSchema },
  },
  {
    route: 'PATCH /account',
    operationId: 'updateAccountSettings',
    tag: 'Account',
    summary: "Change the account's defaults (account admins; null removes one)",
    body: { name: 'AccountSettingsPatch', schema: ZAccountSettingsPatchSchema },
    response: { status: 200, schema: ZAccountSettingsResponseSchema },
    conflict: true,
    examples: { request: { language: 'fr', reminders: { send_reminders: true, reminder_offset: 2 } } },
  },
  {
    route: 'GET /api-keys',
    operationId: 'listApiKeys',
    tag: 'Account',
    summary: "List API keys (the caller's own; an admin's: all of the account's)",
    response: { status: 200, schema: ZApiKeyResponseSchema, array: true },
    examples: { response: [apiKey] },
  },
  {
    route: 'POST /api-keys',
    operationId: 'createApiKey',
    tag: 'Account',
    summary: 'Create an API key for the caller; the key is in this answer only (Idempotency-Key is ignored)',
    body: { name: 'ApiKeyCreate', schema: ZApiKeyCreateSchema },
    response: { status: 201, schema: ZApiKeyCreatedSchema },
    examples: { request: { name: 'Billing export' }, response: { ...apiKey, key: 'Xk29Qa…' } },
  },
  {
    route: 'DELETE /api-keys/{id:uuid}',
    operationId: 'revokeApiKey',
    tag: 'Account',
    summary: "Revoke an API key (the caller's own; an admin: any of the account's); answers it revoked",
    response: { status: 200, schema: ZApiKeyResponseSchema },
  },
  {
    route: 'GET /signing-brands',
    operationId: 'listSigningBrands',
    tag: 'Account',
    summary: 'List signing brands',
    response: { status: 200, schema: ZSigningBrandResponseSchema, array: true },
    examples: { response: [brand] },
  },
  {
    route: 'POST /signing-brands',
    operationId: 'createSigningBrand',
    tag: 'Account',
    summary: 'Create a signing brand (account admins)',
    body: { name: 'SigningBrandWrite', schema: ZSigningBrandWriteSchema },
    response: { status: 201, schema: ZSigningBrandResponseSchema },
    examples: {
      request: { name: brand.name, primary_color: brand.primary_color, logo_url: brand.logo_url },
      response: brand,
    },
  },
  {
    route: 'GET /signing-brands/{id:uuid}',
    operationId: 'retrieveSigningBrand',
    tag: 'Account',
    summary: 'Retrieve a signing brand',
    response: { status: 200, schema: ZSigningBrandResponseSchema },
    examples: { response: brand },
  },
  {
    route: 'PATCH /signing-brands/{id:uuid}',
    operationId: 'updateSigningBrand',
    tag: 'Account',
    summary: 'Change a signing brand (account admins; null removes a setting)',
    body: { name: 'SigningBrandPatch', schema: ZSigningBrandPatchSchema },
    response: { status: 200, schema: ZSigningBrandResponseSchema },
    conflict: true,
  },
  {
    route: 'DELETE /signing-brands/{id:uuid}',
    operationId: 'deleteSigningBrand',
    tag: 'Account',
    summary: "Delete a signing brand (account admins; its bundles' pages then show the service's look)",
    response: { status: 204 },
  },
] as const;
