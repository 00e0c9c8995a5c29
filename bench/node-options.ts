/**
 * The Node options `npm start` runs the server with (package.json), which README and
 * docs/deploy.md recommend for deployments: every benchmark measures Sibyl as deployed.
 */
export const DEPLOYED_NODE_OPTIONS = ["--max-old-space-size=1024", "--max-semi-space-size=8"];
