// pnpm hooks for the workspace.
//
// beforePacking shapes the package.json that `pnpm pack` and `pnpm publish` put in a tarball. A
// published manifest names no workspace package (@socialpub/*) as a development dependency: they are
// development tools here (the reference server the n8n package's tests run against, the contract its
// generated file is checked against), users never install development dependencies, and n8n's
// package check (scripts/scan-package.mts in the n8n package) wants a manifest with no such names.
module.exports = {
  hooks: {
    beforePacking(manifest) {
      const devDependencies = Object.fromEntries(
        Object.entries(manifest.devDependencies ?? {}).filter(([name]) => !name.startsWith("@socialpub/")),
      );
      if (Object.keys(devDependencies).length > 0) manifest.devDependencies = devDependencies;
      else delete manifest.devDependencies;
      return manifest;
    },
  },
};
