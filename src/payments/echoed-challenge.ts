/** The challenge parameters a credential echoes back. */
export interface EchoedChallenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  request: string;
  expires?: string;
  description?: string;
  digest?: string;
  opaque?: string;
}
