import { createRoot } from "react-dom/client";
import { exchangeSignInToken } from "./api/client";
import { App } from "./app";
import { storeKey, takeSignInToken } from "./session";
import "./styles.css";

// Read and removed from the address bar before anything renders, and exchanged once.
const token = takeSignInToken();
const linkExchange = token
  ? exchangeSignInToken(token).then((key) => {
      storeKey(key);
      return key;
    })
  : null;

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(<App linkExchange={linkExchange} />);
