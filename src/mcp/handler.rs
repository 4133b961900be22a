//! The protocol's methods, answered from the snapshot: the Skills
//! extension (`skills/list`, `skills/get`, `resources/directory/read`),
//! resources, the `load_skill` tool, and the 2026-07-28 era's
//! subscriptions.

use std::sync::Arc;

use base64::Engine;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    GetSkillRequestParams, GetSkillResult, Implementation, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ReadResourceDirectoryRequestParams,
    ReadResourceDirectoryResult, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerCapabilities, ServerConfig, Skill,
    SkillFrontmatter, SkillResource, SkillResources, SubscriptionFilter, Tool,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Map, Value as Json, json};

use super::{Change, Shared};
use crate::core::serve::catalog::{self, Catalog, ReadError};
use crate::core::serve::skill::{self, Served};

/// Skills per page of `skills/list`: each page reads its skills whole
/// (digests, audit) on first need, so a page is what one request reads.
const SKILLS_PAGE: usize = catalog::INSTRUCTED;
/// Entries per page of `resources/list` and `resources/directory/read`.
const RESOURCES_PAGE: usize = 1000;
/// How long a client may keep an answer: the snapshot changes only when
/// the disk does, and clients that listen hear of it.
const TTL_MS: u64 = 10_000;

pub const TOOL: &str = "load_skill";

#[derive(Clone)]
pub struct Server {
    shared: Arc<Shared>,
}

impl Server {
    pub fn new(shared: Arc<Shared>) -> Server {
        Server { shared }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let caps = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_tool_list_changed()
            .enable_resources_list_changed()
            .enable_skills_with_directory_read()
            .build();
        ServerConfig::new(caps)
            .with_server_info(Implementation::new("skilltui", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.shared.now().instructions.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(
            ListToolsResult::with_all_items(vec![tool(&self.shared.now())])
                .with_ttl_ms(TTL_MS)
                .with_cache_scope(CacheScope::Private),
        )
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != TOOL {
            return Err(ErrorData::invalid_params(
                format!(
                    "no tool named '{}': this server has `{TOOL}`",
                    crate::core::text::one_line(&request.name, 64)
                ),
                None,
            ));
        }
        let name = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("name"))
            .and_then(Json::as_str);
        let Some(name) = name else {
            return Ok(text_error(format!(
                "`{TOOL}` needs the argument `name`, a string: the skill's name"
            )));
        };
        let name = name.to_string();
        let loaded = self
            .shared
            .with_catalog(move |now| catalog::load_skill(now, &name))
            .await
            .map_err(internal)?;
        Ok(match loaded {
            Ok(body) => CallToolResult::success(vec![ContentBlock::text(body)]).into(),
            Err(e) => text_error(e),
        })
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let from = match request.as_ref().and_then(|r| r.cursor.as_deref()) {
            Some(c) => file_offset(c)?,
            None => (0, 0),
        };
        let (page, next) = self
            .shared
            .with_catalog(move |now| {
                let (files, next) = now.files(from.0, from.1, RESOURCES_PAGE);
                let page: Vec<Resource> = files.into_iter().map(|(s, f)| resource(s, f)).collect();
                (page, next.map(|(s, f)| format!("{s}.{f}")))
            })
            .await
            .map_err(internal)?;
        let mut result = ListResourcesResult::with_all_items(page)
            .with_ttl_ms(TTL_MS)
            .with_cache_scope(CacheScope::Private);
        result.next_cursor = next;
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.clone();
        let read = self
            .shared
            .with_catalog(move |now| now.read(&uri).map(|(f, b)| (f.clone(), b)))
            .await
            .map_err(internal)?;
        let (file, bytes) = match read {
            Ok(read) => read,
            Err(ReadError::Unknown) => {
                return Err(ErrorData::resource_not_found(
                    format!("no skill file is served at {}", request.uri),
                    None,
                ));
            }
            Err(ReadError::Unreadable(e)) => return Err(ErrorData::internal_error(e, None)),
        };
        let mime = skill::mime_type(&file.rel);
        let contents = if skill::is_text(&bytes) {
            let text = String::from_utf8(bytes).unwrap_or_default();
            ResourceContents::text(text, &file.uri).with_mime_type(mime)
        } else {
            let blob = base64::engine::general_purpose::STANDARD.encode(&bytes);
            ResourceContents::blob(blob, &file.uri).with_mime_type(mime)
        };
        Ok(ReadResourceResult::new(vec![contents])
            .with_ttl_ms(TTL_MS)
            .with_cache_scope(CacheScope::Private)
            .into())
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let from = cursor(&request)?.unwrap_or(0);
        let (page, next) = self
            .shared
            .with_catalog(move |now| {
                let (page, next) = now.page(from, SKILLS_PAGE);
                let entries: Vec<Skill> = page.into_iter().map(entry).collect();
                (entries, next.map(|n| n.to_string()))
            })
            .await
            .map_err(internal)?;
        let mut result = ListSkillsResult::with_all_items(page)
            .with_ttl_ms(TTL_MS)
            .with_cache_scope(CacheScope::Private);
        result.next_cursor = next;
        Ok(result)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let uri = request.uri.clone();
        let got = self
            .shared
            .with_catalog(move |now| now.by_skill_uri(&uri).map(entry))
            .await
            .map_err(internal)?;
        let Some(got) = got else {
            return Err(ErrorData::invalid_params(
                format!("No skill is served at {}", request.uri),
                None,
            ));
        };
        Ok(GetSkillResult::new(got)
            .with_ttl_ms(TTL_MS)
            .with_cache_scope(CacheScope::Private))
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let uri = request.uri.clone();
        let children = self
            .shared
            .with_catalog(move |now| now.children(&uri))
            .await
            .map_err(internal)?;
        let Some(children) = children else {
            return Err(ErrorData::invalid_params(
                format!(
                    "{} is not a directory resource of a served skill",
                    request.uri
                ),
                None,
            ));
        };
        let all: Vec<Resource> = children
            .into_iter()
            .map(|c| {
                let mime = match c.is_dir {
                    true => rmcp::model::DIRECTORY_MIME_TYPE,
                    false => skill::mime_type(&c.name),
                };
                Resource::new(c.uri, c.name).with_mime_type(mime)
            })
            .collect();
        let (page, next) = page(
            &all,
            request.cursor.as_deref().map(offset).transpose()?,
            RESOURCES_PAGE,
        );
        let mut result = ListResourcesResult::with_all_items(page.to_vec());
        result.next_cursor = next;
        Ok(result)
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(
            SubscriptionFilter::builder()
                .resources_list_changed()
                .tools_list_changed()
                .build(),
        )
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.shared.changes.subscribe();
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                change = changes.recv() => match change {
                    Ok(Change::Resources) if context.accepted().resources_list_changed == Some(true) => {
                        let _ = context.sink().notify_resource_list_changed().await;
                    }
                    Ok(Change::Tools) if context.accepted().tools_list_changed == Some(true) => {
                        let _ = context.sink().notify_tool_list_changed().await;
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }
}

fn tool(now: &Catalog) -> Tool {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "The skill's name"}
        },
        "required": ["name"]
    });
    let Json::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    Tool::new(TOOL, now.tool_description.clone(), Arc::new(schema))
}

fn text_error(message: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(message)]).into()
}

/// A skill's entry: the extension's `Skill`, its frontmatter verbatim.
fn entry(served: &Served) -> Skill {
    let mut extra: Map<String, Json> = served.frontmatter.clone();
    let text = |v: Option<Json>| match v {
        Some(Json::String(s)) => s,
        _ => String::new(),
    };
    let name = text(extra.shift_remove("name"));
    let description = text(extra.shift_remove("description"));
    let mut fm = SkillFrontmatter::new(name, description);
    fm.extra = extra;
    let files = served
        .files
        .iter()
        .map(|f| SkillResource::new(f.uri.clone(), f.digest.clone(), f.size))
        .collect();
    Skill::new(served.uri(), fm, SkillResources::Files(files))
}

/// A file as `resources/list` gives it: a SKILL.md under its skill's
/// name and description.
fn resource(served: &Served, f: &skill::File) -> Resource {
    match f.rel.as_str() {
        "SKILL.md" => Resource::new(f.uri.clone(), served.name.clone())
            .with_mime_type("text/markdown")
            .with_size(f.size)
            .with_description(served.description.clone()),
        _ => Resource::new(f.uri.clone(), f.rel.clone())
            .with_mime_type(skill::mime_type(&f.rel))
            .with_size(f.size),
    }
}

fn internal(e: String) -> ErrorData {
    ErrorData::internal_error(e, None)
}

/// A `resources/list` cursor: `SKILL.FILE`, as this server wrote it.
fn file_offset(cursor: &str) -> Result<(usize, usize), ErrorData> {
    let bad =
        || ErrorData::invalid_params(format!("'{cursor}' is not a cursor this server gave"), None);
    let (s, f) = cursor.split_once('.').ok_or_else(bad)?;
    Ok((s.parse().map_err(|_| bad())?, f.parse().map_err(|_| bad())?))
}

fn cursor(request: &Option<PaginatedRequestParams>) -> Result<Option<usize>, ErrorData> {
    request
        .as_ref()
        .and_then(|r| r.cursor.as_deref())
        .map(offset)
        .transpose()
}

/// A cursor is the offset of the page's first entry, as this server wrote it.
fn offset(cursor: &str) -> Result<usize, ErrorData> {
    cursor.parse().map_err(|_| {
        ErrorData::invalid_params(format!("'{cursor}' is not a cursor this server gave"), None)
    })
}

fn page<T>(all: &[T], from: Option<usize>, size: usize) -> (&[T], Option<String>) {
    let from = from.unwrap_or(0).min(all.len());
    let to = (from + size).min(all.len());
    let next = (to < all.len()).then(|| to.to_string());
    (&all[from..to], next)
}
