//! The union group: `contract_examples::step::Step`, one document per
//! variant, with the tag first and with the tag last, against serde_json's
//! derive on an equivalent internally tagged enum (`serde_a::Step`).

/// One document per variant, the tag first (as models usually write it).
pub const TAG_FIRST: [&str; 4] = [
    r#"{"action":"close_ticket","ticket_id":7,"reason":"resolved by the customer"}"#,
    r#"{"action":"refund","order_id":4411,"refund_cents":1500,"order_total_cents":4999}"#,
    r#"{"action":"ask_customer","question":"Which order do you mean?"}"#,
    r#"{"action":"no_action"}"#,
];

/// The same documents with the tag last (a unit variant's object holds the
/// tag alone, so its document is the same).
pub const TAG_LAST: [&str; 4] = [
    r#"{"ticket_id":7,"reason":"resolved by the customer","action":"close_ticket"}"#,
    r#"{"order_id":4411,"refund_cents":1500,"order_total_cents":4999,"action":"refund"}"#,
    r#"{"question":"Which order do you mean?","action":"ask_customer"}"#,
    r#"{"action":"no_action"}"#,
];

/// What a user would write with serde alone: the same tag, names and
/// closed objects; no bounds, no `order` rule, no outcome.
pub mod serde_a {
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
    pub enum Step {
        CloseTicket { ticket_id: u64, reason: String },
        Refund(Refund),
        AskCustomer { question: String },
        NoAction,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    pub struct Refund {
        pub order_id: u64,
        pub refund_cents: u32,
        pub order_total_cents: u32,
    }
}

/// The tag in the middle: after the first member, before the others.
pub const TAG_MIDDLE: [&str; 4] = [
    r#"{"ticket_id":7,"action":"close_ticket","reason":"resolved by the customer"}"#,
    r#"{"order_id":4411,"action":"refund","refund_cents":1500,"order_total_cents":4999}"#,
    r#"{"action":"ask_customer","question":"Which order do you mean?"}"#,
    r#"{"action":"no_action"}"#,
];

/// The probe union: variants with members of every kind (short and long
/// strings, integers, a float, a bool, an array, a nested object) and one
/// with many members, each document with the tag first, in the middle and
/// last, against serde's derive on the same shapes (`serde_a::Plan`).
pub mod probe {
    use contract_examples::step::Refund;
    use contract_runtime::Contract;

    /// What to do with a ticket.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(tag = "action", rename_all = "snake_case", max_bytes = 16384)]
    pub enum Plan {
        /// Open a ticket: strings, numbers, an array and a nested object.
        OpenTicket {
            /// A short title.
            #[contract(min_len = 1, max_len = 80)]
            title: String,
            /// The long description.
            #[contract(max_len = 4000)]
            body: String,
            /// 1 (highest) to 5.
            #[contract(min = 1, max = 5)]
            priority: u32,
            /// The estimated effort.
            estimate_hours: f64,
            /// The customer's id.
            customer_id: u64,
            /// Labels for the queue.
            #[contract(max_len = 10)]
            labels: Vec<String>,
            /// Who asked.
            contact: Contact,
        },
        /// Book a meeting: many members.
        Schedule {
            /// The ticket.
            ticket_id: u64,
            /// Who runs it.
            assignee: String,
            /// Their team.
            team: String,
            /// First day (day of the year).
            start_day: u32,
            /// Last day.
            end_day: u32,
            /// Hours a day.
            hours: f64,
            /// Minutes past the hour.
            minutes: u32,
            /// The time zone.
            timezone: String,
            /// Whether it is remote.
            remote: bool,
            /// Where.
            room: String,
            /// How many attend.
            attendees: u32,
            /// Reminder ahead, in minutes.
            reminder_minutes: u32,
            /// Notes.
            notes: String,
            /// Whether it repeats.
            recurring: bool,
            /// For how many weeks.
            weeks: u32,
            /// The budget.
            budget_cents: u64,
        },
        /// Refund part of an order.
        Refund(Refund),
        /// Nothing to do.
        NoAction,
    }

    /// Who asked.
    #[derive(Contract, Debug, Clone, PartialEq)]
    pub struct Contact {
        /// Their name.
        #[contract(min_len = 1, max_len = 120)]
        pub name: String,
        /// Where to write.
        #[contract(min_len = 3, max_len = 254)]
        pub email: String,
        /// Priority support.
        pub vip: bool,
    }

    const OPEN_FIRST: &str = concat!(
        r#"{"action":"open_ticket","title":"Printer on floor 3 jams","#,
        r#""body":"Since Monday the printer on the third floor jams on every second page. The customer tried another paper tray, restarted it twice and cleaned the rollers as the manual says; the error light still blinks amber and the display shows code E-204. They need it for the quarterly reports due on Friday, so a technician visit this week would help a lot.","#,
        r#""priority":2,"estimate_hours":1.5,"customer_id":88231,"labels":["hardware","printer","floor-3"],"#,
        r#""contact":{"name":"Dana Whitfield","email":"dana.whitfield@example.com","vip":false}}"#
    );
    const OPEN_MIDDLE: &str = concat!(
        r#"{"title":"Printer on floor 3 jams","#,
        r#""body":"Since Monday the printer on the third floor jams on every second page. The customer tried another paper tray, restarted it twice and cleaned the rollers as the manual says; the error light still blinks amber and the display shows code E-204. They need it for the quarterly reports due on Friday, so a technician visit this week would help a lot.","#,
        r#""priority":2,"estimate_hours":1.5,"action":"open_ticket","customer_id":88231,"labels":["hardware","printer","floor-3"],"#,
        r#""contact":{"name":"Dana Whitfield","email":"dana.whitfield@example.com","vip":false}}"#
    );
    const OPEN_LAST: &str = concat!(
        r#"{"title":"Printer on floor 3 jams","#,
        r#""body":"Since Monday the printer on the third floor jams on every second page. The customer tried another paper tray, restarted it twice and cleaned the rollers as the manual says; the error light still blinks amber and the display shows code E-204. They need it for the quarterly reports due on Friday, so a technician visit this week would help a lot.","#,
        r#""priority":2,"estimate_hours":1.5,"customer_id":88231,"labels":["hardware","printer","floor-3"],"#,
        r#""contact":{"name":"Dana Whitfield","email":"dana.whitfield@example.com","vip":false},"action":"open_ticket"}"#
    );
    const SCHEDULE_FIRST: &str = concat!(
        r#"{"action":"schedule","ticket_id":5120,"assignee":"Ravi","team":"field service","start_day":212,"end_day":214,"#,
        r#""hours":2.5,"minutes":30,"timezone":"Europe/Lisbon","remote":false,"room":"B-2.14","attendees":4,"#,
        r#""reminder_minutes":15,"notes":"bring the spare rollers","recurring":true,"weeks":6,"budget_cents":125000}"#
    );
    const SCHEDULE_MIDDLE: &str = concat!(
        r#"{"ticket_id":5120,"assignee":"Ravi","team":"field service","start_day":212,"end_day":214,"#,
        r#""hours":2.5,"minutes":30,"timezone":"Europe/Lisbon","action":"schedule","remote":false,"room":"B-2.14","attendees":4,"#,
        r#""reminder_minutes":15,"notes":"bring the spare rollers","recurring":true,"weeks":6,"budget_cents":125000}"#
    );
    const SCHEDULE_LAST: &str = concat!(
        r#"{"ticket_id":5120,"assignee":"Ravi","team":"field service","start_day":212,"end_day":214,"#,
        r#""hours":2.5,"minutes":30,"timezone":"Europe/Lisbon","remote":false,"room":"B-2.14","attendees":4,"#,
        r#""reminder_minutes":15,"notes":"bring the spare rollers","recurring":true,"weeks":6,"budget_cents":125000,"action":"schedule"}"#
    );

    /// The probe documents with the tag first.
    pub const TAG_FIRST: [&str; 3] = [
        OPEN_FIRST,
        SCHEDULE_FIRST,
        r#"{"action":"refund","order_id":4411,"refund_cents":1500,"order_total_cents":4999}"#,
    ];
    /// The same with the tag in the middle.
    pub const TAG_MIDDLE: [&str; 3] = [
        OPEN_MIDDLE,
        SCHEDULE_MIDDLE,
        r#"{"order_id":4411,"refund_cents":1500,"action":"refund","order_total_cents":4999}"#,
    ];
    /// The same with the tag last.
    pub const TAG_LAST: [&str; 3] = [
        OPEN_LAST,
        SCHEDULE_LAST,
        r#"{"order_id":4411,"refund_cents":1500,"order_total_cents":4999,"action":"refund"}"#,
    ];

    /// The same shapes with serde alone.
    pub mod serde_a {
        use serde::Deserialize;

        #[derive(Deserialize, Debug)]
        #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
        pub enum Plan {
            OpenTicket {
                title: String,
                body: String,
                priority: u32,
                estimate_hours: f64,
                customer_id: u64,
                labels: Vec<String>,
                contact: Contact,
            },
            Schedule {
                ticket_id: u64,
                assignee: String,
                team: String,
                start_day: u32,
                end_day: u32,
                hours: f64,
                minutes: u32,
                timezone: String,
                remote: bool,
                room: String,
                attendees: u32,
                reminder_minutes: u32,
                notes: String,
                recurring: bool,
                weeks: u32,
                budget_cents: u64,
            },
            Refund(super::super::serde_a::Refund),
            NoAction,
        }

        #[derive(Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        pub struct Contact {
            pub name: String,
            pub email: String,
            pub vip: bool,
        }
    }
}

/// A union whose variants share their first member: with the tag last, the
/// first variant declaring it is guessed, and is wrong for two of the three
/// documents (`serde_a::Move` is serde's side).
pub mod shared {
    use contract_runtime::Contract;

    /// What to do with a ticket; every variant names it first.
    #[derive(Contract, Debug, Clone, PartialEq)]
    #[contract(tag = "action", rename_all = "snake_case")]
    pub enum Move {
        /// Close it.
        Close {
            /// The ticket.
            ticket_id: u64,
            /// Why.
            #[contract(min_len = 1, max_len = 200)]
            reason: String,
        },
        /// Hand it to another team.
        Escalate {
            /// The ticket.
            ticket_id: u64,
            /// Why.
            #[contract(min_len = 1, max_len = 200)]
            reason: String,
            /// The team.
            team: String,
            /// 1 to 3.
            #[contract(min = 1, max = 3)]
            urgency: u32,
        },
        /// Give it to someone else.
        Reassign {
            /// The ticket.
            ticket_id: u64,
            /// Who takes it.
            assignee: String,
            /// A note for them.
            note: String,
        },
    }

    /// The documents with the tag first.
    pub const TAG_FIRST: [&str; 3] = [
        r#"{"action":"close","ticket_id":7,"reason":"resolved by the customer"}"#,
        r#"{"action":"escalate","ticket_id":7,"reason":"needs a field visit","team":"field service","urgency":2}"#,
        r#"{"action":"reassign","ticket_id":7,"assignee":"Ravi","note":"you know this printer"}"#,
    ];
    /// The same with the tag last.
    pub const TAG_LAST: [&str; 3] = [
        r#"{"ticket_id":7,"reason":"resolved by the customer","action":"close"}"#,
        r#"{"ticket_id":7,"reason":"needs a field visit","team":"field service","urgency":2,"action":"escalate"}"#,
        r#"{"ticket_id":7,"assignee":"Ravi","note":"you know this printer","action":"reassign"}"#,
    ];

    /// The same shapes with serde alone.
    pub mod serde_a {
        use serde::Deserialize;

        #[derive(Deserialize, Debug)]
        #[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
        pub enum Move {
            Close {
                ticket_id: u64,
                reason: String,
            },
            Escalate {
                ticket_id: u64,
                reason: String,
                team: String,
                urgency: u32,
            },
            Reassign {
                ticket_id: u64,
                assignee: String,
                note: String,
            },
        }
    }
}
