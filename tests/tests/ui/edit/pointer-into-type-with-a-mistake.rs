// The mistake is in `Notifications`; the policy of `Settings` that points
// into it must not be reported as a second error.
use contract_runtime::Contract;

#[derive(Contract)]
#[contract(edit(quiet = ["/notifications/email"]))]
pub struct Settings {
    pub notifications: Notifications,
}

#[derive(Contract)]
pub struct Notifications {
    #[contract(min = 1)]
    pub email: bool,
}

fn main() {}
