//! `login` and `logout`: a person's login (`docs/api.md`, "People, login and roles"); the
//! browser flow itself is `session::browser_login`.

use jobgraph_sdk::client::{DiskTokenStore, TokenKey};

use crate::args::LoginArgs;
use crate::context::Context;
use crate::failure::Failure;
use crate::session::{PUBLIC_CLIENT, Session, browser_login};
use crate::settings::home_dir;

/// `jobgraph login`.
pub fn login(args: LoginArgs, ctx: &Context) -> Result<(), Failure> {
    browser_login::log_in(args.no_browser, args.timeout, ctx)
}

/// `jobgraph logout`.
pub fn logout(ctx: &Context) -> Result<(), Failure> {
    let session = Session::open_with(ctx, Some(PUBLIC_CLIENT))?;
    let store = DiskTokenStore::new(home_dir()?.join("auth"));
    let key = TokenKey {
        client_id: session.client.client_id().to_owned(),
        auth_base_url: session
            .client
            .token_url()
            .trim_end_matches("/oauth/token")
            .to_owned(),
    };
    let path = store.path_for(&key);
    // The service ends the login first (its refresh token and every token of it); the local
    // copy goes whatever it says, and a failure is told.
    if let Some(token) = jobgraph_sdk::client::TokenStore::load(&store, &key) {
        match session
            .runtime
            .block_on(session.client.revoke_login(&token))
        {
            Ok(()) => eprintln!("The service ended the login (its tokens are revoked)."),
            Err(e) => eprintln!(
                "warning: the service could not be told to end the login ({e}); its tokens stay valid until they expire"
            ),
        }
    }
    match std::fs::remove_file(&path) {
        Ok(()) => {
            eprintln!("Logged out: {} deleted.", path.display());
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!(
                "Not logged in ({} has no token for {}).",
                store.dir().display(),
                session.client.api_base_url()
            );
            Ok(())
        }
        Err(e) => Err(Failure::failed(format!(
            "cannot delete {}: {e}",
            path.display()
        ))),
    }
}
