// Types for the part of n8n's package scanner that scan-package.mts uses (the package ships none).
declare module "@n8n/scan-community-package/scanner/scanner.mjs" {
  export const SOURCE_FILE_PATTERNS: string[];
  export function analyzePackage(
    packageDir: string,
    filePatterns?: string[],
  ): Promise<{ passed: boolean; message?: string; details?: string }>;
}
