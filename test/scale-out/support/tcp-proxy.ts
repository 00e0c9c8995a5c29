import { connect, createServer, type Server, type Socket } from "node:net";

/** A TCP forwarder on loopback that can be stopped (refusing connections) and started again. */
export interface TcpProxy {
  port: number;
  /** Stops listening and cuts every forwarded connection, as a database host going away does. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        const address = next.address();
        port = typeof address === "object" && address ? address.port : port;
        server = next;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    stop: async () => {
      const closing = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },
    start: listen,
  };
}

/** A TCP proxy in front of the PostgreSQL server of `databaseUrl`, and that URL through it. */
export async function proxyDatabase(
  databaseUrl: string,
): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(databaseUrl);
  viaProxy.port = String(proxy.port);
  return { proxy, url: viaProxy.toString() };
}
