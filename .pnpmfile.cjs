// pnpm hooks for the workspace.
//
// beforePacking shapes the package.json that `pnpm pack` and `pnpm publish` put in a tarball. The
// workspace packages (@socialpub/*) are never published, so a published manifest must not name them:
// they are development tools here (the reference server the n8n package's tests run against, the
// contract its generated file is checked against). Users never install development dependencies.
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
