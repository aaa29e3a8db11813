/** This package's version, as its package.json says (a test checks they agree). */
export const MCP_VERSION = "0.1.0";
