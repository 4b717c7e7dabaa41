/** What a payload builder makes of a delivery: the HTTP request to send. */
export interface OutboundMessage {
  readonly event_id: string;
  readonly event_type: string;
  readonly severity: string;
  readonly title: string;
  readonly body: string;
  readonly service_name: string | null;
  /** Epoch seconds of the event. */
  readonly timestamp: number;
}

/** An HTTP request to a receiver. */
export interface OutboundRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** One destination kind's payload convention. */
export type PayloadBuilder = (url: string, message: OutboundMessage) => OutboundRequest;
