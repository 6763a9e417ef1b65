//! The compile-pass cases of `tests/ui/pass/`: declarations the derive must
//! accept, each compiled here into this binary (a trybuild `pass` case
//! would build every dependency once more, and each case on its own) and
//! its `main` run as a test. The compile-fail cases stay with trybuild
//! (`tests/ui.rs`).

// The cases keep a user's bounds in both places on purpose.
#![allow(clippy::multiple_bound_locations)]

mod every_field_type {
    include!("../ui/pass/every-field-type.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod generic_struct {
    include!("../ui/pass/generic-struct.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod generic_union {
    include!("../ui/pass/generic-union.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod recursive {
    include!("../ui/pass/recursive.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod settings_edit_policy {
    include!("../ui/pass/settings-edit-policy.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod tagged_union {
    include!("../ui/pass/tagged-union.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}

mod vacation_request {
    include!("../ui/pass/vacation-request.rs");

    #[test]
    fn compiles_and_runs() {
        main();
    }
}
