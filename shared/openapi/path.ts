/** Where the API's description is served, under /api/v2 (apart from the builder, which is large). */
export const OPENAPI_PATH = '/openapi.json';
