import PSCore
