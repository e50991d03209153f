"""gRPC services of paipu (layer 4): EventLogService, IngestService, ReplayService, the server's
composition root and the client. They sit above the log (``eventlog``) and the replayer."""
