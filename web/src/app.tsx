import { useCallback, useMemo, useState } from "react";
import { Api, endSession } from "./api/client";
import { Layout } from "./components/layout";
import { LinkSignIn } from "./components/link-sign-in";
import { SignIn } from "./components/sign-in";
import { Batches } from "./pages/batches";
import { Files } from "./pages/files";
import { Keys } from "./pages/keys";
import { Ledger } from "./pages/ledger";
import { Overview } from "./pages/overview";
import { Playground } from "./pages/playground";
import { Reports } from "./pages/reports";
import { TrackRecord } from "./pages/track-record";
import { Usage } from "./pages/usage";
import { ROUTES, type Route, useRoute } from "./router";
import { forgetKey, storedKey, storeKey } from "./session";

function Page({ route, api }: { route: Route; api: Api }) {
  switch (route) {
    case "overview":
      return <Overview api={api} />;
    case "keys":
      return <Keys api={api} />;
    case "usage":
      return <Usage api={api} />;
    case "ledger":
      return <Ledger api={api} />;
    case "batches":
      return <Batches api={api} />;
    case "files":
      return <Files api={api} />;
    case "reports":
      return <Reports api={api} />;
    case "track-record":
      return <TrackRecord api={api} />;
    case "playground":
      return <Playground api={api} />;
  }
}

/** `linkExchange`: the exchange of a one-time sign-in link the page was opened with. */
export function App({ linkExchange }: { linkExchange: Promise<string> | null }) {
  const [key, setKey] = useState(storedKey);
  const [pendingLink, setPendingLink] = useState(linkExchange);
  const [notice, setNotice] = useState<string | undefined>();
  const route = useRoute();
  const api = useMemo(() => (key ? new Api(key) : null), [key]);
  const linkFailed = useCallback((message: string) => {
    setPendingLink(null);
    setNotice(message);
  }, []);

  if (pendingLink) {
    return (
      <LinkSignIn
        exchange={pendingLink}
        onFailure={linkFailed}
        onContinue={(newKey) => {
          setPendingLink(null);
          setKey(newKey);
        }}
      />
    );
  }
  if (!api) {
    return (
      <SignIn
        notice={notice}
        onSignIn={(presented) => {
          storeKey(presented);
          setNotice(undefined);
          setKey(presented);
        }}
      />
    );
  }
  const title = ROUTES.find((entry) => entry.route === route)?.label ?? "Overview";
  return (
    <Layout
      route={route}
      title={title}
      onSignOut={() => {
        if (key !== null) void endSession(key);
        forgetKey();
        setKey(null);
      }}
    >
      <Page key={route} route={route} api={api} />
    </Layout>
  );
}
