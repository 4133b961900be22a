//! The stdio transport with three bounds rmcp leaves to the server:
//! - before the client has started a session (the `initialize` handshake,
//!   or a 2026-07-28 request that selects that era), a notification or a
//!   response is dropped: rmcp would end the connection on it;
//! - at most [`MAX_IN_FLIGHT`] requests are answered at once, counted until
//!   the answer is written out, so that a client that stops reading stdout
//!   stops the server reading stdin (answers never pile up in memory);
//! - at most [`MAX_LISTENS`] `subscriptions/listen` streams are open at
//!   once; another is answered with an error.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, ClientRequest, ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Requests answered at once: a `resources/read` answer holds up to a
/// skill's 16 MiB (and its base64), so this bounds the server's memory.
pub const MAX_IN_FLIGHT: usize = 8;

/// Open `subscriptions/listen` streams per connection (stdio is one).
pub const MAX_LISTENS: usize = 16;

type Sending<E> = Pin<Box<dyn Future<Output = Result<(), E>> + Send>>;

/// What an open request holds until its answer is written.
enum Slot {
    Request(OwnedSemaphorePermit),
    Listen,
}

pub struct Gate<T: Transport<RoleServer>> {
    inner: T,
    /// Set once rmcp has chosen the session's era.
    started: Arc<AtomicBool>,
    permits: Arc<Semaphore>,
    /// A permit taken before the next message is read: waiting for it
    /// never loses a message read from stdin.
    spare: Option<OwnedSemaphorePermit>,
    open: HashMap<RequestId, Slot>,
    listens: usize,
    /// An answer the gate itself writes (a refused listen), kept across a
    /// cancelled `receive`.
    refusal: Option<Sending<T::Error>>,
}

impl<T: Transport<RoleServer>> Gate<T> {
    /// `started` is set by the caller when rmcp's handshake returns.
    pub fn new(inner: T, started: Arc<AtomicBool>) -> Gate<T> {
        Gate {
            inner,
            started,
            permits: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            spare: None,
            open: HashMap::new(),
            listens: 0,
            refusal: None,
        }
    }

    fn close_slot(&mut self, id: &RequestId) -> Option<OwnedSemaphorePermit> {
        match self.open.remove(id)? {
            Slot::Request(permit) => Some(permit),
            Slot::Listen => {
                self.listens -= 1;
                None
            }
        }
    }

    /// What to do with a message read: `Some` passes it to rmcp.
    fn admit(&mut self, msg: RxJsonRpcMessage<RoleServer>) -> Option<RxJsonRpcMessage<RoleServer>> {
        let request = match &msg {
            JsonRpcMessage::Request(r) => r,
            JsonRpcMessage::Notification(n) => {
                if !self.started.load(Ordering::Acquire) {
                    return None;
                }
                if let ClientNotification::CancelledNotification(c) = &n.notification
                    && let Some(id) = &c.params.request_id
                {
                    // rmcp drops the answer of a cancelled request.
                    self.close_slot(id);
                }
                return Some(msg);
            }
            _ if !self.started.load(Ordering::Acquire) => return None,
            _ => return Some(msg),
        };
        if self.open.contains_key(&request.id) {
            // rmcp keeps one answer per id: a second would never free its slot.
            return None;
        }
        let id = request.id.clone();
        if matches!(
            request.request,
            ClientRequest::SubscriptionsListenRequest(_)
        ) {
            if self.listens >= MAX_LISTENS {
                let refused = ErrorData::invalid_request(
                    format!(
                        "this server keeps at most {MAX_LISTENS} subscriptions/listen streams open: cancel one first"
                    ),
                    None,
                );
                self.refusal = Some(Box::pin(
                    self.inner.send(JsonRpcMessage::error(refused, Some(id))),
                ));
                return None;
            }
            self.listens += 1;
            self.open.insert(id, Slot::Listen);
        } else {
            let permit = self.spare.take()?;
            self.open.insert(id, Slot::Request(permit));
        }
        Some(msg)
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Gate<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let id = match &item {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => None,
        };
        let permit = id.and_then(|id| self.close_slot(&id));
        let sending = self.inner.send(item);
        async move {
            let done = sending.await;
            // Freed only once the answer is out: stdout's backpressure
            // reaches stdin.
            drop(permit);
            done
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(refusal) = self.refusal.as_mut() {
                let _ = refusal.await;
                self.refusal = None;
            }
            if self.spare.is_none() {
                self.spare = Some(self.permits.clone().acquire_owned().await.ok()?);
            }
            let msg = self.inner.receive().await?;
            if let Some(msg) = self.admit(msg) {
                return Some(msg);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}
